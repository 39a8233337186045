package dev.spanprofile.lifecycle;

import java.util.function.Predicate;

import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * OpenTelemetry's SDK reporting span starts and ends to {@link SpanLifecycle}: identity,
 * parent, timing, and the final name and status (under Micrometer's bridge the real name
 * is only set just before the span ends).
 * <p>
 * The SDK calls processors only for sampled spans; requests tracing did not sample reach
 * spanprofile through {@link UnsampledRequests} instead.
 */
public final class SpanLifecycleProcessor implements SpanProcessor {

	private final SpanLifecycle lifecycle;

	private final Predicate<ReadableSpan> excluded;

	/**
	 * @param excluded local roots to drop when they end, with their whole request (e.g.
	 * calls to the actuator itself); asked of local roots only
	 */
	public SpanLifecycleProcessor(SpanLifecycle lifecycle, Predicate<ReadableSpan> excluded) {
		this.lifecycle = lifecycle;
		this.excluded = excluded;
	}

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
		SpanContext context = span.getSpanContext();
		SpanContext parent = span.getParentSpanContext();
		boolean hasParent = parent.isValid();
		this.lifecycle.started(context.getTraceId(), context.getSpanId(), hasParent ? parent.getSpanId() : null,
				hasParent && !parent.isRemote(), span.getName(), span.getKind().name());
	}

	@Override
	public boolean isStartRequired() {
		return true;
	}

	@Override
	public void onEnd(ReadableSpan span) {
		SpanContext parent = span.getParentSpanContext();
		boolean localRoot = !parent.isValid() || parent.isRemote();
		String spanId = span.getSpanContext().getSpanId();
		SpanRecord record = this.lifecycle.tracked(spanId);
		if (record == null && !localRoot) {
			// Neither stored nor counted: not worth a copy of its data.
			return;
		}
		// The status has no getter of its own: a span's data is a copy, made once.
		String status = span.toSpanData().getStatus().getStatusCode().name();
		this.lifecycle.ended(record, spanId, localRoot, span.getName(), status, span.getLatencyNanos(),
				localRoot && this.excluded.test(span));
	}

	@Override
	public boolean isEndRequired() {
		return true;
	}

}
