package dev.spanprofile.agent.extension;

import dev.spanprofile.agent.bridge.AgentBridge;
import dev.spanprofile.agent.bridge.AgentSpanEvents;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Reports the agent's sampled spans to the application: their start (identity, parent,
 * thread) and their end with the final name and status, as spanprofile's own processor
 * does on an application's tracer provider. The agent's SDK calls processors for sampled
 * spans only.
 */
final class SpanEventsProcessor implements SpanProcessor {

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
		AgentSpanEvents events = AgentBridge.events();
		if (events == null) {
			return;
		}
		try {
			SpanContext context = span.getSpanContext();
			SpanContext parent = span.getParentSpanContext();
			boolean hasParent = parent.isValid();
			events.started(context.getTraceId(), context.getSpanId(), hasParent ? parent.getSpanId() : null,
					hasParent && !parent.isRemote(), span.getName(), span.getKind().name());
		}
		catch (RuntimeException | LinkageError ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

	@Override
	public boolean isStartRequired() {
		return true;
	}

	@Override
	public void onEnd(ReadableSpan span) {
		AgentSpanEvents events = AgentBridge.events();
		if (events == null) {
			return;
		}
		try {
			SpanContext parent = span.getParentSpanContext();
			boolean localRoot = !parent.isValid() || parent.isRemote();
			// The status has no getter of its own: asked only of the spans the
			// application keeps, as copying a span's data is the costly part of an end.
			events.ended(span.getSpanContext().getSpanId(), localRoot, span.getName(),
					() -> span.toSpanData().getStatus().getStatusCode() == StatusCode.ERROR, span.getLatencyNanos(),
					(name) -> span.getAttribute(AttributeKey.stringKey(name)));
		}
		catch (RuntimeException | LinkageError ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

	@Override
	public boolean isEndRequired() {
		return true;
	}

}
