package dev.spanprofile.autoconfigure.otelagent;

import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.spanprofile.agent.bridge.AgentSpanEvents;
import dev.spanprofile.autoconfigure.ActuatorRequestFilter;
import dev.spanprofile.lifecycle.SpanLifecycle;
import dev.spanprofile.tracking.ActivationRecorder;

/**
 * Receives the OpenTelemetry Java agent's span events in the application and hands them
 * to the same entry points as the other tracers' hooks: activations to the
 * {@link ActivationRecorder}, starts and ends to the {@link SpanLifecycle}, as Brave's
 * scope decorator and span handler do. Runs on the application's threads, inside the
 * agent's instrumentation: never throws.
 */
final class AgentSpanReceiver implements AgentSpanEvents {

	private final ActivationRecorder recorder;

	private final SpanLifecycle lifecycle;

	private final Predicate<String> stored;

	private final ActuatorRequestFilter actuatorRequests;

	/**
	 * @param stored whether the store holds, or awaits the samples of, the span with a
	 * given id
	 * @param actuatorRequests recognises requests to the actuator, which are dropped with
	 * their spans; null to profile them too
	 */
	AgentSpanReceiver(ActivationRecorder recorder, SpanLifecycle lifecycle, Predicate<String> stored,
			ActuatorRequestFilter actuatorRequests) {
		this.recorder = recorder;
		this.lifecycle = lifecycle;
		this.stored = stored;
		this.actuatorRequests = actuatorRequests;
	}

	@Override
	public void activated(String spanId) {
		try {
			this.recorder.spanActivated(spanId);
		}
		catch (RuntimeException ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

	@Override
	public void started(String traceId, String spanId, String parentSpanId, boolean parentIsLocal, String name,
			String kind) {
		try {
			this.lifecycle.started(traceId, spanId, parentSpanId, parentIsLocal, (name != null) ? name : "", kind);
		}
		catch (RuntimeException ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

	@Override
	public void ended(String spanId, boolean localRoot, String name, BooleanSupplier error, long durationNanos,
			Function<String, String> stringAttributes) {
		try {
			if (!localRoot && !this.stored.test(spanId)) {
				// Neither stored nor counted (a child while the profiler is stopped, or
				// dropped): not worth a copy of its data for its status.
				return;
			}
			boolean excluded = localRoot && this.actuatorRequests != null
					&& this.actuatorRequests.testAttributes(stringAttributes);
			this.lifecycle.ended(spanId, localRoot, name, error.getAsBoolean(), durationNanos, excluded);
		}
		catch (RuntimeException ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

}
