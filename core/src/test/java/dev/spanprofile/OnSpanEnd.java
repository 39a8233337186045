package dev.spanprofile;

import java.util.function.Consumer;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/** A span processor that only hands each ended span to a test. */
public record OnSpanEnd(Consumer<ReadableSpan> action) implements SpanProcessor {

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
	}

	@Override
	public boolean isStartRequired() {
		return false;
	}

	@Override
	public void onEnd(ReadableSpan span) {
		this.action.accept(span);
	}

	@Override
	public boolean isEndRequired() {
		return true;
	}

}
