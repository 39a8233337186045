package dev.spanprofile.autoconfigure.otelagent;

import java.util.function.Function;

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

	private final ActuatorRequestFilter actuatorRequests;

	/**
	 * @param actuatorRequests recognises requests to the actuator, which are dropped with
	 * their spans; null to profile them too
	 */
	AgentSpanReceiver(ActivationRecorder recorder, SpanLifecycle lifecycle, ActuatorRequestFilter actuatorRequests) {
		this.recorder = recorder;
		this.lifecycle = lifecycle;
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
	public void ended(String spanId, boolean localRoot, String name, boolean error, long durationNanos,
			Function<String, String> stringAttributes) {
		try {
			boolean excluded = this.actuatorRequests != null && this.actuatorRequests.testAttributes(stringAttributes);
			this.lifecycle.ended(spanId, localRoot, name, error, durationNanos, excluded);
		}
		catch (RuntimeException ex) {
			// The application's thread must never fail because of the profiler.
		}
	}

}
