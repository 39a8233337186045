package dev.spanprofile.tracking;

/**
 * The one clock inside the engine: monotonic nanoseconds, {@code System.nanoTime()} in
 * production. The engine is built with one, so that the collector's deadlines, a
 * request's start and end, retention windows and the watermark all read the same clock,
 * and a test steps it instead of sleeping.
 * <p>
 * Two readers go to {@code System.nanoTime()} itself, because what they stamp is compared
 * with samples the operating system or the JVM stamped on that clock: the activation hook
 * (every change point, on application threads) and the engines' promises. Epoch time is
 * this clock mapped by {@link MonotonicEpoch} ({@link #epochNanos}), for what people see
 * and what leaves the process.
 */
@FunctionalInterface
public interface NanoClock {

	/** {@code System.nanoTime()}. */
	NanoClock SYSTEM = System::nanoTime;

	/** Now, in monotonic nanoseconds. */
	long nanoTime();

	/**
	 * Now in epoch nanoseconds, as spans' times are kept and shown: this clock's reading
	 * mapped by {@link MonotonicEpoch#toEpochNanos}.
	 */
	default long epochNanos() {
		return MonotonicEpoch.toEpochNanos(nanoTime());
	}

}
