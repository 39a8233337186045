package dev.spanprofile.attribution;

import dev.spanprofile.profile.SampleKind;

/**
 * Something a thread works on that is not a span yet keeps its own samples: a step of the
 * application's start. Recorded as the thread's activity
 * ({@link dev.spanprofile.tracking.ActivationRecorder#backgroundActivity}), it receives
 * every sample joined to it, on the collector thread.
 */
public interface SampledActivity {

	/**
	 * One sample of {@code kind} taken at {@code epochNanos}; the stack is shared and
	 * must not be changed.
	 */
	void addSample(SampleKind kind, int[] rootFirstStack, long weight, long epochNanos);

}
