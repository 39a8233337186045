package dev.spanprofile.attribution;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.spanprofile.profile.SampleKind;

/**
 * Running totals of where samples went, per kind of sample, and of the stretches of
 * thread activity that were lost. Written by the collector thread, readable from any
 * thread without waiting for a collection cycle (a metrics scrape must not queue behind
 * one).
 */
public final class AttributionCounters {

	/** What became of a sample. */
	public enum Result {

		/** Given to the span active on its thread. */
		ATTRIBUTED,

		/** Its thread ran no tracked span at the time. */
		OUTSIDE,

		/**
		 * Its thread's state was unknown (change points lost, or the thread not yet
		 * seen).
		 */
		UNKNOWN;

		public String id() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	private static final int RESULTS = Result.values().length;

	private final AtomicLongArray samples = new AtomicLongArray(SampleKind.values().length * RESULTS);

	private final AtomicLong timelineGaps = new AtomicLong();

	void add(SampleKind kind, Result result, long weight) {
		this.samples.addAndGet(kind.ordinal() * RESULTS + result.ordinal(), weight);
	}

	void timelineGap() {
		this.timelineGaps.incrementAndGet();
	}

	/**
	 * Samples of {@code kind} that ended as {@code result} since the engine was created.
	 */
	public long samples(SampleKind kind, Result result) {
		return this.samples.get(kind.ordinal() * RESULTS + result.ordinal());
	}

	/**
	 * The totals over the kinds counted in samples (cpu and wall); bytes and nanoseconds
	 * have counters of their own.
	 */
	public AttributionStats stats() {
		long[] totals = new long[RESULTS];
		for (SampleKind kind : SampleKind.values()) {
			if (kind.counted()) {
				for (Result result : Result.values()) {
					totals[result.ordinal()] += samples(kind, result);
				}
			}
		}
		return new AttributionStats(totals[Result.ATTRIBUTED.ordinal()], totals[Result.OUTSIDE.ordinal()],
				totals[Result.UNKNOWN.ordinal()]);
	}

	/**
	 * Times a thread changed spans faster than its change-point ring could be drained, so
	 * that a stretch of its activity is unknown and its samples there are counted
	 * {@link Result#UNKNOWN}.
	 */
	public long timelineGaps() {
		return this.timelineGaps.get();
	}

}
