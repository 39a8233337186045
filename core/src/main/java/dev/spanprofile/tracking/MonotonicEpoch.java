package dev.spanprofile.tracking;

import java.time.Instant;

/**
 * The one conversion between {@code System.nanoTime()} and wall-clock epoch nanoseconds. Everything internal is
 * stamped with the monotonic clock (cheap, and what the profiler's samples carry); epoch times are for people and
 * for recordings that carry them.
 * <p>
 * The two clocks drift apart (NTP slews the wall clock, or steps it), so a conversion is only as good as its
 * {@link Anchor}: a pair of readings of both clocks taken at one moment. Converting a sample's time needs the anchor
 * closest to it — the one its recording carries, or one read now — never one from long ago. The fixed anchor of
 * {@link #toEpochNanos} is only for showing times to people, where all that matters is that they agree.
 */
public final class MonotonicEpoch {

	private static final long NANOS_PER_SECOND = 1_000_000_000L;

	/** Read once: displayed times stay consistent with each other however the wall clock moves later. */
	private static final Anchor DISPLAY = Anchor.now();

	private MonotonicEpoch() {
	}

	/** For display: epoch nanoseconds of a {@code System.nanoTime()} reading. */
	public static long toEpochNanos(long nanoTime) {
		return DISPLAY.toEpochNanos(nanoTime);
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

		/** Both clocks read now, back to back. */
		public static Anchor now() {
			Instant wall = Instant.now();
			return new Anchor(MonotonicEpoch.epochNanos(wall), System.nanoTime());
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
