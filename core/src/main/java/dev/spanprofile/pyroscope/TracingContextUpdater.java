package dev.spanprofile.pyroscope;

import dev.spanprofile.tracking.SpanActivationListener;
import io.opentelemetry.api.trace.SpanContext;
import io.pyroscope.vendor.one.profiler.AsyncProfiler;

/**
 * Keeps the Pyroscope profiler's per-thread tracing context equal to the span active on
 * the thread: set on every attach, restored on every scope close. A parent is therefore
 * labelled again as soon as its child's scope closes, work handed to a pool thread with
 * its context is labelled with the caller's span, and a thread whose scope closed carries
 * no label, whichever thread ends the span.
 */
final class TracingContextUpdater implements SpanActivationListener {

	private final SpanLabels labels;

	private final AsyncProfiler profiler;

	private final boolean spanNames;

	private final boolean traceIds;

	TracingContextUpdater(SpanLabels labels, AsyncProfiler profiler, boolean spanNames, boolean traceIds) {
		this.labels = labels;
		this.profiler = profiler;
		this.spanNames = spanNames;
		this.traceIds = traceIds;
	}

	@Override
	public void activated(SpanContext span) {
		SpanLabels.Label label = (span != null) ? this.labels.find(span.getSpanId()) : null;
		if (label == null) {
			this.profiler.setTracingContext(0, 0);
			if (this.traceIds) {
				this.profiler.setTraceId(0, 0);
			}
			return;
		}
		this.profiler.setTracingContext(label.spanId, this.spanNames ? label.nameId : 0);
		if (this.traceIds) {
			this.profiler.setTraceId(label.traceIdHigh, label.traceIdLow);
		}
	}

}
