package dev.spanprofile.lifecycle;

/**
 * How far behind "now" an engine's delivery promise may fall before the change points it
 * would need are forgotten by elapsed time instead. Engines promise with a lag of their
 * own (a Flight Recorder stream a flush behind, a Pyroscope agent an upload interval
 * behind); one whose promise stops moving (its stream died) must not make the collector
 * keep every change point from then on.
 * <p>
 * The horizon is twice the longest lag the promise showed before it moved again, never
 * less than {@link CollectorSettings#minDeliveryHorizon()} (an engine still to deliver
 * its first batch is not cut short) and never more than
 * {@link CollectorSettings#maxDeliveryHorizon()} (one long stall does not set it for
 * good). Collector thread only.
 */
final class DeliveryLag {

	private final long minHorizonNanos;

	private final long maxHorizonNanos;

	private long promisedUpTo = Long.MIN_VALUE;

	private long longestLagNanos;

	DeliveryLag(CollectorSettings settings) {
		this.minHorizonNanos = settings.minDeliveryHorizon().toNanos();
		this.maxHorizonNanos = settings.maxDeliveryHorizon().toNanos();
	}

	/**
	 * The engine promised every sample up to {@code upTo}, at {@code now} (both
	 * System.nanoTime).
	 */
	void promised(long upTo, long now) {
		if (upTo <= this.promisedUpTo) {
			return;
		}
		if (this.promisedUpTo != Long.MIN_VALUE) {
			// How stale the promise had grown by the time it moved.
			this.longestLagNanos = Math.max(this.longestLagNanos, now - this.promisedUpTo);
		}
		this.promisedUpTo = upTo;
	}

	/**
	 * Sampling resumes after a switch-off: the promise did not move while nothing
	 * sampled, and the pause is no lag of the engine's. The next promise starts afresh.
	 */
	void resumed() {
		this.promisedUpTo = Long.MIN_VALUE;
	}

	/**
	 * Change points older than this, before now, are not kept for the engine's promise.
	 */
	long horizon() {
		return Math.min(this.maxHorizonNanos, Math.max(this.minHorizonNanos, 2 * this.longestLagNanos));
	}

}
