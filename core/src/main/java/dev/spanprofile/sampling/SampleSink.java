package dev.spanprofile.sampling;

import dev.spanprofile.profile.SampleKind;

/** Receives parsed samples, in the order the engine produced them. */
@FunctionalInterface
public interface SampleSink {

	/**
	 * The thread of a sample that stands for every thread inside a span at its time: a
	 * stop-the-world pause of the garbage collector stops them all.
	 */
	long EVERY_THREAD_IN_A_SPAN = Long.MIN_VALUE;

	/**
	 * @param kind what the sample measures
	 * @param javaThreadId the sampled Java thread ({@code Thread.getId()}), -1 for a
	 * thread the JVM does not know, or {@link #EVERY_THREAD_IN_A_SPAN}
	 * @param monotonicNanos when the sample was taken, on the {@code System.nanoTime()}
	 * clock
	 * @param rootFirstStack interned frame ids, outermost caller first; shared, do not
	 * modify
	 * @param weight how many samples this event stands for
	 */
	void sample(SampleKind kind, long javaThreadId, long monotonicNanos, int[] rootFirstStack, long weight);

}
