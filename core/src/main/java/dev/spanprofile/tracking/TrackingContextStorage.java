package dev.spanprofile.tracking;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;

/**
 * Takes the place of OpenTelemetry's default thread-local storage (and behaves as it
 * does) so that one scope object both restores the previous context and records the
 * change. Wrapping the default storage instead costs a second scope per attach, which the
 * JIT does not scalar-replace; this one is, while the profiler is stopped, since the
 * scope then only restores.
 * <p>
 * Every scope records at its close when the profiler is recording then, whether or not it
 * was recording at the attach: a scope opened while stopped and closed after a restart
 * still reports what runs after it.
 */
final class TrackingContextStorage implements ContextStorage {

	private final ThreadLocal<Context> current = new ThreadLocal<>();

	private final ActivationRecorder recorder;

	TrackingContextStorage(ActivationRecorder recorder) {
		this.recorder = recorder;
	}

	@Override
	public Scope attach(Context toAttach) {
		if (toAttach == null) {
			return Scope.noop();
		}
		Context beforeAttach = this.current.get();
		if (toAttach == beforeAttach) {
			return Scope.noop();
		}
		this.current.set(toAttach);
		this.recorder.contextActivated(toAttach);
		return new TrackingScope(beforeAttach, toAttach);
	}

	@Override
	public Context current() {
		return this.current.get();
	}

	@Override
	public Context root() {
		return ContextStorage.defaultStorage().root();
	}

	private final class TrackingScope implements Scope {

		private final Context beforeAttach;

		private final Context toAttach;

		private boolean closed;

		TrackingScope(Context beforeAttach, Context toAttach) {
			this.beforeAttach = beforeAttach;
			this.toAttach = toAttach;
		}

		@Override
		public void close() {
			// As OpenTelemetry's storage: a scope closed out of order, or twice, changes
			// nothing.
			ThreadLocal<Context> current = TrackingContextStorage.this.current;
			if (!this.closed && current.get() == this.toAttach) {
				this.closed = true;
				current.set(this.beforeAttach);
				TrackingContextStorage.this.recorder.contextActivated(this.beforeAttach);
			}
		}

	}

}
