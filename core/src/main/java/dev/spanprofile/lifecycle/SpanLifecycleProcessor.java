package dev.spanprofile.lifecycle;

import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.tracking.MonotonicEpoch;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * Tells the store about span starts and ends: identity, parent, timing, and the final
 * name and status (under Micrometer's bridge the real name is only set just before the
 * span ends).
 * <p>
 * The SDK calls processors only for sampled spans, so unsampled requests are never
 * profiled.
 */
public final class SpanLifecycleProcessor implements SpanProcessor {

	private final SpanProfileStore store;

	private final Predicate<ReadableSpan> excluded;

	private final BooleanSupplier accepting;

	/**
	 * @param excluded spans to drop when they end, with their whole request if they are a
	 * local root (e.g. calls to the actuator itself)
	 */
	public SpanLifecycleProcessor(SpanProfileStore store, Predicate<ReadableSpan> excluded) {
		this(store, excluded, () -> true);
	}

	/**
	 * @param excluded spans to drop when they end, with their whole request if they are a
	 * local root
	 * @param accepting whether spans starting now are stored (spans already stored are
	 * always completed)
	 */
	public SpanLifecycleProcessor(SpanProfileStore store, Predicate<ReadableSpan> excluded, BooleanSupplier accepting) {
		this.store = store;
		this.excluded = excluded;
		this.accepting = accepting;
	}

	@Override
	public void onStart(Context parentContext, ReadWriteSpan span) {
		if (!this.accepting.getAsBoolean()) {
			return;
		}
		SpanContext context = span.getSpanContext();
		SpanContext parent = span.getParentSpanContext();
		boolean hasParent = parent.isValid();
		this.store.spanStarted(context.getTraceId(), context.getSpanId(), hasParent ? parent.getSpanId() : null,
				hasParent && !parent.isRemote(), span.getName(), span.getKind().name(), MonotonicEpoch.nowEpochNanos(),
				Thread.currentThread().getName());
	}

	@Override
	public boolean isStartRequired() {
		return true;
	}

	@Override
	public void onEnd(ReadableSpan span) {
		SpanContext context = span.getSpanContext();
		var record = this.store.findTracked(context.getSpanId());
		if (record == null) {
			return;
		}
		String status = span.toSpanData().getStatus().getStatusCode().name();
		this.store.spanEnded(context.getSpanId(), span.getName(), status,
				record.startEpochNanos() + span.getLatencyNanos(), this.excluded.test(span));
	}

	@Override
	public boolean isEndRequired() {
		return true;
	}

}
