package dev.spanprofile.link;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Gives every request's entry span in this process (local root) the address of its flame
 * graph, so that a trace viewer (Zipkin, Jaeger, Tempo) shows where to look next to the
 * span.
 * <p>
 * Set when the span starts: attributes are frozen when it ends. Only local roots get it:
 * with root-span-only attribution they hold the samples, and asking for any span of a
 * request serves its root's graph anyway.
 */
public final class SpanLinkProcessor implements SpanProcessor {

	/** The attribute carrying the flame graph's address. */
	public static final AttributeKey<String> URL = AttributeKey.stringKey("spanprofile.url");

	private final String prefix;

	/**
	 * @param baseUrl the spanprofile endpoint as a viewer's user reaches it, e.g.
	 * {@code http://orders-7f9c:8080/actuator/spanprofile}
	 */
	public SpanLinkProcessor(String baseUrl) {
		if (baseUrl == null || baseUrl.isBlank()) {
			throw new IllegalArgumentException("baseUrl must not be empty");
		}
		String trimmed = baseUrl.trim();
		this.prefix = trimmed.endsWith("/") ? trimmed : trimmed + "/";
	}

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
		SpanContext parent = span.getParentSpanContext();
		if (!parent.isValid() || parent.isRemote()) {
			span.setAttribute(URL, this.prefix + span.getSpanContext().getSpanId());
		}
	}

	@Override
	public boolean isStartRequired() {
		return true;
	}

	@Override
	public void onEnd(ReadableSpan span) {
	}

	@Override
	public boolean isEndRequired() {
		return false;
	}

}
