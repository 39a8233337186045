package dev.spanprofile.tracking;

import java.time.Instant;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The one conversion between {@code System.nanoTime()} and wall-clock epoch nanoseconds.
 * Everything internal is stamped with the monotonic clock (cheap, and what the profiler's
 * samples carry); epoch times are for people and for recordings that carry them.
 * <p>
 * The two clocks drift apart (NTP slews the wall clock, or steps it), so a conversion is
 * only as good as its {@link Anchor}: a pair of readings of both clocks taken at one
 * moment. Converting a sample's time needs the anchor closest to it — the one its
 * recording carries, or one read now — never one from long ago. The fixed anchor of
 * {@link #toEpochNanos} is only for showing times to people, where all that matters is
 * that they agree.
 */
public final class MonotonicEpoch {

	private static final long NANOS_PER_SECOND = 1_000_000_000L;

	/**
	 * Read once: displayed times stay consistent with each other however the wall clock
	 * moves later.
	 */
	private static final Anchor DISPLAY = Anchor.now();

	private MonotonicEpoch() {
	}

	/** For display: epoch nanoseconds of a {@code System.nanoTime()} reading. */
	public static long toEpochNanos(long nanoTime) {
		return DISPLAY.toEpochNanos(nanoTime);
	}

	/**
	 * As {@link #toEpochNanos}, with the watermark's bounds kept: {@link Long#MIN_VALUE}
	 * (nothing joined yet) and {@link Long#MAX_VALUE} (everything joined) map to
	 * themselves.
	 */
	public static long watermarkToEpochNanos(long nanoTime) {
		return (nanoTime == Long.MIN_VALUE || nanoTime == Long.MAX_VALUE) ? nanoTime : toEpochNanos(nanoTime);
	}

	/** For display: now, in epoch nanoseconds consistent with {@link #toEpochNanos}. */
	public static long nowEpochNanos() {
		return toEpochNanos(System.nanoTime());
	}

	public static long epochNanos(Instant instant) {
		return instant.getEpochSecond() * NANOS_PER_SECOND + instant.getNano();
	}

	/**
	 * The same moment on both clocks.
	 *
	 * @param epochNanos wall-clock time, nanoseconds since the epoch
	 * @param nanoTime {@code System.nanoTime()} (CLOCK_MONOTONIC on Linux)
	 */
	public record Anchor(long epochNanos, long nanoTime) {

		/**
		 * A pairing taken apart by the scheduler is read again, up to this many times in
		 * all: a thread descheduled between its two clock reads pairs instants that lie
		 * the descheduling apart, milliseconds on a loaded machine.
		 */
		static final int PAIRING_TRIES = 3;

		/**
		 * Two monotonic reads this close bracket the wall-clock read well enough; no
		 * further try is made.
		 */
		static final long TIGHT_PAIRING_NANOS = 10_000;

		/**
		 * Both clocks read now: the wall clock between two monotonic reads, paired with
		 * their midpoint, so that the pairing's error is at most half the bracket. The
		 * tightest of up to {@link #PAIRING_TRIES} brackets is kept.
		 */
		public static Anchor now() {
			return bracketed(System::nanoTime, Instant::now);
		}

		static Anchor bracketed(LongSupplier nanoTime, Supplier<Instant> wallClock) {
			Anchor tightest = null;
			long tightestBracket = Long.MAX_VALUE;
			for (int i = 0; i < PAIRING_TRIES && tightestBracket > TIGHT_PAIRING_NANOS; i++) {
				long before = nanoTime.getAsLong();
				Instant wall = wallClock.get();
				long bracket = nanoTime.getAsLong() - before;
				if (bracket < tightestBracket) {
					tightestBracket = bracket;
					tightest = new Anchor(MonotonicEpoch.epochNanos(wall), before + bracket / 2);
				}
			}
			return tightest;
		}

		public long toNanoTime(long epochNanos) {
			return this.nanoTime + (epochNanos - this.epochNanos);
		}

		public long toNanoTime(Instant instant) {
			return toNanoTime(MonotonicEpoch.epochNanos(instant));
		}

		public long toEpochNanos(long nanoTime) {
			return this.epochNanos + (nanoTime - this.nanoTime);
		}

	}

}
