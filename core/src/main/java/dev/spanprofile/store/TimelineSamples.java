package dev.spanprofile.store;

import java.util.List;

import dev.spanprofile.profile.SampleKind;

/**
 * A copy of one span's timeline: each sample with its time and thread, safe to render
 * while sampling goes on.
 *
 * @param samples in the order they were joined (not strictly by time across threads)
 * @param dropped samples taken after the timeline was full and therefore not in it: the
 * timeline is truncated when this is not 0, and a stretch of it may lack samples that the
 * span's whole graph has
 */
public record TimelineSamples(List<Sample> samples, long dropped) {

	/**
	 * The most samples one span's timeline holds; beyond them the first ones are kept.
	 */
	public static final int MAX_SAMPLES = SampleTimeline.MAX_ENTRIES;

	public boolean truncated() {
		return this.dropped > 0;
	}

	/**
	 * One sample.
	 *
	 * @param epochNanos when it was taken; for a wait, when the wait ended
	 * @param threadId the Java thread it was taken on
	 * @param threadName that thread's name when known, or {@code null}
	 * @param kind what it measures
	 * @param weight its weight in the kind's unit (a wait's nanoseconds)
	 * @param leafFrame the innermost frame of its stack (for a wait, the frame that says
	 * what was waited on), or -1
	 */
	public record Sample(long epochNanos, long threadId, String threadName, SampleKind kind, long weight,
			int leafFrame) {

		/** When it began: a wait's start; any other sample is a moment. */
		public long startEpochNanos() {
			return (this.kind == SampleKind.WAIT) ? this.epochNanos - this.weight : this.epochNanos;
		}

	}

}
