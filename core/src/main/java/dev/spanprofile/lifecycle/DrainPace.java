package dev.spanprofile.lifecycle;

import java.util.concurrent.TimeUnit;

/**
 * How long the collector waits before its next drain. Each wake-up costs a system call
 * and a context switch whether or not there is anything to drain, and on a machine whose
 * cores are all busy it takes a core from a request in flight: so the collector drains as
 * seldom as the threads' rings allow, between {@link #QUICKEST_MILLIS} and
 * {@link #SLOWEST_MILLIS}, aiming to find the fullest ring at {@link #TARGET_FILL}. A
 * burst that fills a ring to half before that asks for a drain at once
 * ({@code ActivationRecorder#setDrainWanted}), so a quiet pace does not lose points.
 * <p>
 * At the quickest pace, as before there was a pace, whenever a request waits for its
 * samples to reach the store or for its slow-request log line: their collections are
 * brought forward in steps of a drain.
 */
final class DrainPace {

	static final long QUICKEST_MILLIS = 50;

	static final long SLOWEST_MILLIS = 250;

	/** The share of the fullest ring a drain should find. */
	static final double TARGET_FILL = 0.25;

	private DrainPace() {
	}

	/**
	 * Milliseconds until the next drain.
	 * @param fullest the largest share of its ring a thread filled since the drain before
	 * this one
	 * @param sinceLastDrainNanos how long ago that drain was
	 * @param hurried whether a request waits for a collection the schedule may bring
	 * forward
	 * @param untilDueNanos how long until the next collection is due by the dump interval
	 */
	static long nextMillis(double fullest, long sinceLastDrainNanos, boolean hurried, long untilDueNanos) {
		long millis;
		if (hurried) {
			millis = QUICKEST_MILLIS;
		}
		else if (fullest <= 0) {
			millis = SLOWEST_MILLIS;
		}
		else {
			double paced = TimeUnit.NANOSECONDS.toMillis(sinceLastDrainNanos) * TARGET_FILL / fullest;
			millis = (long) Math.max(QUICKEST_MILLIS, Math.min(SLOWEST_MILLIS, paced));
		}
		long untilDue = TimeUnit.NANOSECONDS.toMillis(Math.max(0, untilDueNanos)) + 1;
		return Math.min(millis, untilDue);
	}

}
