package dev.spanprofile.tracking;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;

/**
 * Wraps a {@link ContextStorage} other than OpenTelemetry's default one (which
 * {@link TrackingContextStorage} replaces instead) so that every attach and every scope
 * close tells the {@link ActivationRecorder} which span is now active on the calling
 * thread. Its scope wraps the delegate's even while the profiler is stopped, so that a
 * scope opened then and closed after a restart still records what runs after it.
 * <p>
 * Scope level rather than span start/end is what makes hand-offs right: a task that
 * carries its context to a pool thread attaches the same span there, so samples taken on
 * the worker belong to that span.
 */
final class SpanActivationStorage implements ContextStorage {

	private final ContextStorage delegate;

	private final ActivationRecorder recorder;

	SpanActivationStorage(ContextStorage delegate, ActivationRecorder recorder) {
		this.delegate = delegate;
		this.recorder = recorder;
	}

	@Override
	public Scope attach(Context toAttach) {
		Scope scope = this.delegate.attach(toAttach);
		if (scope == Scope.noop()) {
			// Attaching the context that is already current changes nothing, and its
			// close restores nothing.
			return scope;
		}
		this.recorder.contextActivated(toAttach);
		return new RecordingScope(scope);
	}

	@Override
	public Context current() {
		return this.delegate.current();
	}

	@Override
	public Context root() {
		return this.delegate.root();
	}

	private final class RecordingScope implements Scope {

		private final Scope scope;

		RecordingScope(Scope scope) {
			this.scope = scope;
		}

		@Override
		public void close() {
			this.scope.close();
			// Whatever the delegate restored is what runs now, even if scopes were closed
			// out of order.
			SpanActivationStorage.this.recorder.contextActivated(SpanActivationStorage.this.delegate.current());
		}

	}

}
