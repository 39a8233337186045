package dev.spanprofile.agent.extension;

import dev.spanprofile.agent.bridge.AgentBridge;
import dev.spanprofile.agent.bridge.AgentSpanEvents;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.context.Scope;

/**
 * Wraps the agent's context storage so that every attach and every scope's close tells
 * the application which span is now active on the calling thread: the per-thread timeline
 * spanprofile joins samples with. Scope level rather than span start and end is what
 * keeps hand-offs right: a task carried to a pool thread attaches its span there.
 * <p>
 * Costs one volatile read per change while no application listens; the scope is wrapped
 * even then, so that a scope opened before the application connected still reports, at
 * its close, what runs after it.
 */
final class ActivationReportingStorage implements ContextStorage {

	private final ContextStorage delegate;

	ActivationReportingStorage(ContextStorage delegate) {
		this.delegate = delegate;
	}

	static ContextStorage wrap(ContextStorage storage) {
		if (storage instanceof ActivationReportingStorage) {
			return storage;
		}
		AgentBridge.markContextStorageHooked();
		return new ActivationReportingStorage(storage);
	}

	@Override
	public Scope attach(Context toAttach) {
		Scope scope = this.delegate.attach(toAttach);
		if (scope == Scope.noop()) {
			// Attaching the context that is already current changes nothing, and its
			// close restores nothing.
			return scope;
		}
		report(toAttach);
		return new ReportingScope(scope);
	}

	@Override
	public Context current() {
		return this.delegate.current();
	}

	@Override
	public Context root() {
		return this.delegate.root();
	}

	private static void report(Context context) {
		AgentSpanEvents events = AgentBridge.events();
		if (events == null) {
			return;
		}
		try {
			events.activated(recordedSpanId(context));
		}
		catch (RuntimeException | LinkageError ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

	/**
	 * The hex id of the context's span if the agent records it, else null: a span its
	 * sampler dropped never reaches the span processor, so it has no place in the
	 * application's store to receive samples. The SDK keeps the id as one String per
	 * span, so the same span reports the same object.
	 */
	static String recordedSpanId(Context context) {
		if (context == null) {
			return null;
		}
		Span span = Span.fromContextOrNull(context);
		if (span == null) {
			return null;
		}
		SpanContext spanContext = span.getSpanContext();
		if (!spanContext.isValid()) {
			return null;
		}
		return (spanContext.isSampled() || span.isRecording()) ? spanContext.getSpanId() : null;
	}

	private final class ReportingScope implements Scope {

		private final Scope scope;

		ReportingScope(Scope scope) {
			this.scope = scope;
		}

		@Override
		public void close() {
			this.scope.close();
			// Whatever the delegate restored is what runs now, even if scopes were closed
			// out of order.
			report(ActivationReportingStorage.this.delegate.current());
		}

	}

}
