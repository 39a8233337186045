package dev.spanprofile.benchmarks.hook;

import dev.spanprofile.tracking.ActivationRecorder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;

/**
 * A proposal measured beside the real hook, not used by spanprofile: a tracking storage
 * that keeps the thread's context itself, as OpenTelemetry's default storage does,
 * instead of wrapping that storage.
 * <p>
 * The real hook returns its own scope around the delegate's, two objects per attach that
 * the JIT does not scalar-replace; here one scope both restores the previous context and
 * records the change, so an attach costs what OpenTelemetry's own costs plus the
 * recording. While the profiler is stopped nothing about the span is looked at. Only
 * usable where the delegate is OpenTelemetry's default storage, which is what the hook
 * wraps unless another storage provider is configured.
 */
final class SingleScopeTrackingStorage implements ContextStorage {

	private static final ThreadLocal<Context> current = new ThreadLocal<>();

	private final ActivationRecorder recorder;

	SingleScopeTrackingStorage(ActivationRecorder recorder) {
		this.recorder = recorder;
	}

	@Override
	public Scope attach(Context toAttach) {
		if (toAttach == null) {
			return Scope.noop();
		}
		Context beforeAttach = current.get();
		if (toAttach == beforeAttach) {
			return Scope.noop();
		}
		current.set(toAttach);
		if (this.recorder.isRecording()) {
			this.recorder.spanActivated(activeSpan(toAttach));
		}
		return new RestoringScope(beforeAttach);
	}

	@Override
	public Context current() {
		return current.get();
	}

	@Override
	public Context root() {
		return ContextStorage.defaultStorage().root();
	}

	private static SpanContext activeSpan(Context context) {
		if (context == null) {
			return null;
		}
		Span span = Span.fromContextOrNull(context);
		if (span == null) {
			return null;
		}
		SpanContext spanContext = span.getSpanContext();
		return spanContext.isValid() ? spanContext : null;
	}

	private final class RestoringScope implements Scope {

		private final Context beforeAttach;

		RestoringScope(Context beforeAttach) {
			this.beforeAttach = beforeAttach;
		}

		@Override
		public void close() {
			current.set(this.beforeAttach);
			if (SingleScopeTrackingStorage.this.recorder.isRecording()) {
				SingleScopeTrackingStorage.this.recorder.spanActivated(activeSpan(this.beforeAttach));
			}
		}

	}

}
