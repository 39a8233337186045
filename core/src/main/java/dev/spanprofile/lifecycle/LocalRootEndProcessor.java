package dev.spanprofile.lifecycle;

import java.util.function.Predicate;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.tracking.MonotonicEpoch;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Counts every local root that ends in its name's statistics, stored or not. Runs after
 * the store's own processor, so a stored root is already marked ended (and queued for its
 * profile to be folded in once complete, see {@link CompletedRoots#ended}).
 */
public final class LocalRootEndProcessor implements SpanProcessor {

	private final SpanProfileStore store;

	private final NameAggregates aggregates;

	private final Predicate<ReadableSpan> excluded;

	public LocalRootEndProcessor(SpanProfileStore store, NameAggregates aggregates, Predicate<ReadableSpan> excluded) {
		this.store = store;
		this.aggregates = aggregates;
		this.excluded = excluded;
	}

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
	}

	@Override
	public boolean isStartRequired() {
		return false;
	}

	@Override
	public void onEnd(ReadableSpan span) {
		SpanContext parent = span.getParentSpanContext();
		if ((parent.isValid() && !parent.isRemote()) || this.excluded.test(span)) {
			return;
		}
		String spanId = span.getSpanContext().getSpanId();
		// Dropped already (the store is busy) but awaiting its samples: its end is known
		// all the same.
		SpanRecord record = this.store.findTracked(spanId);
		boolean stored = record != null && record.isLocalRoot() && !record.inFlight();
		long end = stored ? record.endEpochNanos() : MonotonicEpoch.nowEpochNanos();
		boolean error = span.toSpanData().getStatus().getStatusCode() == StatusCode.ERROR;
		this.aggregates.spanEnded(span.getName(), spanId, span.getLatencyNanos(), error, end);
	}

	@Override
	public boolean isEndRequired() {
		return true;
	}

}
