package dev.spanprofile.autoconfigure.brave;

import brave.propagation.CurrentTraceContext;
import brave.propagation.CurrentTraceContext.Scope;
import brave.propagation.CurrentTraceContext.ScopeDecorator;
import brave.propagation.TraceContext;
import dev.spanprofile.tracking.ActivationRecorder;

/**
 * Tells the {@link ActivationRecorder} which span is active on the calling thread every
 * time Brave's current trace context changes: on every new scope (a request's span, a
 * child span, a task handed to a pool with its context) and every scope's close. The same
 * per-thread timeline as OpenTelemetry's context storage hook, which is what makes
 * hand-offs right: the worker thread opens a scope of the same span, so its samples join
 * that span.
 * <p>
 * A span is recorded by its hex id, which Brave keeps in its context once computed: the
 * same object as long as the span stays active. Spans Brave does not record are recorded
 * as none, as for OpenTelemetry's unsampled spans.
 */
final class BraveActivationDecorator implements ScopeDecorator {

	private final ActivationRecorder recorder;

	/**
	 * The span id this decorator last recorded on the thread; a scope restores the one
	 * before it.
	 */
	private final ThreadLocal<String> active = new ThreadLocal<>();

	/**
	 * The context {@link #decorates} opens a scope of, while it does; compared by
	 * reference with each context decorated.
	 */
	private TraceContext probe;

	private boolean probeSeen;

	BraveActivationDecorator(ActivationRecorder recorder) {
		this.recorder = recorder;
	}

	/**
	 * Whether {@code current} calls this decorator: opens and closes one scope of a
	 * context no tracer knows (not sampled, so nothing is recorded) and says whether it
	 * came through here. Brave's builders take decorators once, so a current trace
	 * context built without this one can never be hooked afterwards.
	 */
	boolean decorates(CurrentTraceContext current) {
		TraceContext probe = TraceContext.newBuilder().traceId(1).spanId(1).sampled(false).build();
		this.probeSeen = false;
		this.probe = probe;
		try (Scope scope = current.newScope(probe)) {
			return this.probeSeen;
		}
		finally {
			this.probe = null;
		}
	}

	@Override
	public Scope decorateScope(TraceContext context, Scope scope) {
		if (context != null && context == this.probe) {
			this.probeSeen = true;
		}
		if (scope == Scope.NOOP) {
			// Brave's answer when the context is already the current one: nothing
			// changes, and its close restores nothing.
			return scope;
		}
		String before = this.active.get();
		String now = recordedSpanId(context);
		setActive(now);
		this.recorder.spanActivated(now);
		return new ActivationScope(scope, before);
	}

	private static String recordedSpanId(TraceContext context) {
		if (context == null) {
			return null;
		}
		// Only spans reported to span handlers have a place in the store to receive
		// samples.
		return (Boolean.TRUE.equals(context.sampled()) || context.sampledLocal()) ? context.spanIdString() : null;
	}

	private void setActive(String spanId) {
		if (spanId != null) {
			this.active.set(spanId);
		}
		else {
			// Nothing left on the thread when it leaves its spans.
			this.active.remove();
		}
	}

	private final class ActivationScope implements Scope {

		private final Scope scope;

		private final String before;

		ActivationScope(Scope scope, String before) {
			this.scope = scope;
			this.before = before;
		}

		@Override
		public void close() {
			this.scope.close();
			// As Brave's own scope: what was current before this one is current again,
			// even if closed out of order.
			setActive(this.before);
			BraveActivationDecorator.this.recorder.spanActivated(this.before);
		}

	}

}
