package dev.spanprofile.tracking;

import java.time.Instant;

/**
 * Converts {@code System.nanoTime()} readings to wall-clock epoch nanoseconds. Everything internal is stamped with
 * the monotonic clock (cheap, and what the profiler's samples carry); epoch times are only for people.
 */
public final class MonotonicEpoch {

	private static final long EPOCH_AT_NANO_TIME_ZERO;

	static {
		Instant now = Instant.now();
		EPOCH_AT_NANO_TIME_ZERO = now.getEpochSecond() * 1_000_000_000L + now.getNano() - System.nanoTime();
	}

	private MonotonicEpoch() {
	}

	public static long toEpochNanos(long nanoTime) {
		return EPOCH_AT_NANO_TIME_ZERO + nanoTime;
	}

	public static long nowEpochNanos() {
		return toEpochNanos(System.nanoTime());
	}

}
