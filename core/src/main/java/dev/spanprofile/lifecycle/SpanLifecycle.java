package dev.spanprofile.lifecycle;

import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.tracking.NanoClock;

/**
 * Span starts and ends as any tracer can report them, by hex ids and plain values:
 * OpenTelemetry's SDK through {@link SpanLifecycleProcessor}, other tracers through their
 * own hooks (Brave's span handlers). Only spans the tracer records are reported.
 */
public final class SpanLifecycle {

	private final SpanProfileStore store;

	private final NameAggregates aggregates;

	private final BooleanSupplier accepting;

	private final Collector collector;

	private final LongPredicate slowRequest;

	private final NanoClock clock;

	/**
	 * @param accepting whether spans starting now are stored (spans already stored are
	 * always completed)
	 * @param collector told when a stored request that {@code slowRequest} calls slow
	 * ends
	 * @param slowRequest whether a request of so many nanoseconds gets a slow-request log
	 * line (the log's own rule, so that both agree)
	 * @param clock the engine's clock: spans start by it (in epoch nanoseconds, as spans'
	 * times are kept)
	 */
	public SpanLifecycle(SpanProfileStore store, NameAggregates aggregates, BooleanSupplier accepting,
			Collector collector, LongPredicate slowRequest, NanoClock clock) {
		this.clock = clock;
		this.store = store;
		this.aggregates = aggregates;
		this.accepting = accepting;
		this.collector = collector;
		this.slowRequest = slowRequest;
	}

	/**
	 * A span started on the calling thread. {@code parentSpanId} is null for a trace
	 * root; {@code parentIsLocal} tells whether the parent runs in this process (a remote
	 * parent makes this span a local root).
	 */
	public void started(String traceId, String spanId, String parentSpanId, boolean parentIsLocal, String name,
			String kind) {
		if (this.accepting.getAsBoolean()) {
			this.store.spanStarted(traceId, spanId, parentSpanId, parentIsLocal, name, kind, this.clock.epochNanos(),
					Thread.currentThread().getName());
		}
	}

	/**
	 * A span ended, with its final name. A local root is counted in its name's statistics
	 * whether stored or not.
	 * @param localRoot whether the span has no parent in this process
	 * @param excluded drop the span (with its whole request, if a local root), as for
	 * calls to the actuator
	 */
	public void ended(String spanId, boolean localRoot, String name, boolean error, long durationNanos,
			boolean excluded) {
		ended(tracked(spanId), spanId, localRoot, name, error ? "ERROR" : "UNSET", durationNanos, excluded);
	}

	/**
	 * The span with this id, stored or dropped already (the store is busy) but awaiting
	 * its samples, or {@code null}: where its end goes.
	 */
	SpanRecord tracked(String spanId) {
		return this.store.findTracked(spanId);
	}

	/**
	 * A span ended, with its final name and its status ({@code UNSET}, {@code OK} or
	 * {@code ERROR}); {@code record} is what {@link #tracked} found for it.
	 */
	void ended(SpanRecord record, String spanId, boolean localRoot, String name, String status, long durationNanos,
			boolean excluded) {
		if (record != null) {
			this.store.spanEnded(spanId, name, status, record.startEpochNanos() + durationNanos, excluded);
		}
		if (!localRoot || excluded) {
			return;
		}
		// A stored root was queued for completion by the store as it marked it ended.
		boolean tracked = record != null && record.isLocalRoot() && !record.inFlight();
		if (tracked && this.slowRequest.test(durationNanos)) {
			this.collector.slowRequestEnded();
		}
		long end = tracked ? record.endEpochNanos() : this.clock.epochNanos();
		this.aggregates.spanEnded(name, spanId, durationNanos, "ERROR".equals(status), end);
	}

}
