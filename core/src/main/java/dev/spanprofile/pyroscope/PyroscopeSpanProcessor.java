package dev.spanprofile.pyroscope;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Registers sampled spans with the {@link SpanLabels} and marks the spans whose id labels
 * samples with {@code pyroscope.profile.id}, the attribute Grafana looks for to offer
 * "Profiles for this span".
 * <p>
 * The attribute is set when the span starts because a span's attributes are frozen when
 * it ends, and whether it got samples is only known once the profile covering its end is
 * uploaded. So it means "this span's samples are labelled", not "this span has samples":
 * a span shorter than the sampling interval may have none.
 */
public final class PyroscopeSpanProcessor implements SpanProcessor {

	/** The attribute Grafana's Tempo data source uses to link a span to its profile. */
	public static final AttributeKey<String> PROFILE_ID = AttributeKey.stringKey("pyroscope.profile.id");

	private final SpanLabels labels;

	public PyroscopeSpanProcessor(SpanLabels labels) {
		this.labels = labels;
	}

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
		if (this.labels.spanStarted(span.getSpanContext(), span.getParentSpanContext(), span.getName())) {
			span.setAttribute(PROFILE_ID, span.getSpanContext().getSpanId());
		}
	}

	@Override
	public boolean isStartRequired() {
		return true;
	}

	@Override
	public void onEnd(ReadableSpan span) {
		this.labels.spanEnded(span.getSpanContext().getSpanId(), span.getName());
	}

	@Override
	public boolean isEndRequired() {
		return true;
	}

}
