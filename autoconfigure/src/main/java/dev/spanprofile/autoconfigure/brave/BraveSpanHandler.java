package dev.spanprofile.autoconfigure.brave;

import java.util.function.Predicate;

import brave.Span;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import dev.spanprofile.lifecycle.SpanLifecycle;

/**
 * Reports the spans Brave records to spanprofile's store: their start (identity, parent,
 * thread) and their end with the final name, which Micrometer sets just before. Brave
 * calls span handlers only for the spans it records, as OpenTelemetry's SDK calls span
 * processors only for sampled ones.
 */
final class BraveSpanHandler extends SpanHandler {

	private final SpanLifecycle lifecycle;

	private final Predicate<MutableSpan> excluded;

	/**
	 * @param excluded spans to drop when they end, with their whole request if they are a
	 * local root (e.g. calls to the actuator itself)
	 */
	BraveSpanHandler(SpanLifecycle lifecycle, Predicate<MutableSpan> excluded) {
		this.lifecycle = lifecycle;
		this.excluded = excluded;
	}

	@Override
	public boolean begin(TraceContext context, MutableSpan span, TraceContext parent) {
		try {
			String parentId = context.parentIdString();
			String name = span.name();
			this.lifecycle.started(context.traceIdString(), context.spanIdString(), parentId,
					parentId != null && !context.isLocalRoot(), (name != null) ? name : "", kind(span.kind()));
		}
		catch (RuntimeException ex) {
			// The application's thread must never fail because of the profiler.
		}
		return true;
	}

	@Override
	public boolean end(TraceContext context, MutableSpan span, Cause cause) {
		try {
			long start = span.startTimestamp();
			long finish = span.finishTimestamp();
			// Brave's timestamps are microseconds.
			long durationNanos = (start > 0 && finish >= start) ? (finish - start) * 1000 : 0;
			boolean error = span.error() != null || span.tag("error") != null;
			// Only a finished span has a duration. Any other leaves the store with its
			// request, uncounted: an abandoned span the application threw away, an
			// orphaned one (never finished, reported by trackOrphans()) or a flushed one
			// (reported unfinished by flush()), which would count as 0 ms requests.
			boolean excluded = cause != Cause.FINISHED || this.excluded.test(span);
			this.lifecycle.ended(context.spanIdString(), context.isLocalRoot(), span.name(), error, durationNanos,
					excluded);
		}
		catch (RuntimeException ex) {
			// The application's thread must never fail because of the profiler.
		}
		return true;
	}

	@Override
	public boolean handlesAbandoned() {
		return true;
	}

	private static String kind(Span.Kind kind) {
		return (kind != null) ? kind.name() : "INTERNAL";
	}

}
