package dev.spanprofile.sampling;

/**
 * What one recorded lock wait stands for, in nanoseconds. async-profiler's {@code lock=}
 * interval (the engine's and the Pyroscope agent's alike) records a wait each time the
 * waits it has seen add up to another interval, so a wait shorter than that is recorded
 * with a chance of its length over the interval: recorded, it stands for the interval, as
 * an allocation sample stands for the allocation interval, and each wait's expected
 * weight is its length. At an interval of 0 every wait is recorded and weighs its length.
 */
public final class LockWaitWeight {

	private LockWaitWeight() {
	}

	/**
	 * @param waitNanos how long the recorded wait lasted
	 * @param lockIntervalNanos the {@code lock=} interval the recording was made with
	 * @return the nanoseconds the wait stands for: at least 1
	 */
	public static long of(long waitNanos, long lockIntervalNanos) {
		return Math.max(Math.max(1, waitNanos), lockIntervalNanos);
	}

}
