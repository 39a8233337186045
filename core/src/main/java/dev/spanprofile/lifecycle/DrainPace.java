package dev.spanprofile.lifecycle;

import java.util.concurrent.TimeUnit;

/**
 * How long the collector waits before its next drain. Each wake-up costs a system call
 * and a context switch whether or not there is anything to drain, and on a machine whose
 * cores are all busy it takes a core from a request in flight: so the collector drains as
 * seldom as the threads' rings allow, between {@link CollectorSettings#quickestDrain()}
 * and {@link CollectorSettings#slowestDrain()}, aiming to find the fullest ring at
 * {@link CollectorSettings#drainTargetFill()}. A burst that fills a ring to half before
 * that asks for a drain at once ({@code ActivationRecorder#setDrainWanted}), so a quiet
 * pace does not lose points.
 * <p>
 * At the quickest pace, as before there was a pace, while a collection may be brought
 * forward before the next paced drain (requests awaiting their samples about to fill
 * their room, see {@code CollectionSchedule#mayBringForward}) or a request waits for its
 * slow-request log line: their collections are brought forward in steps of a drain.
 */
final class DrainPace {

	private final long quickestMillis;

	private final long slowestMillis;

	/** The share of the fullest ring a drain should find. */
	private final double targetFill;

	/** When the last drain started, on the {@code System.nanoTime()} clock. */
	private long lastDrainStart;

	/** The stretch the last drain covered: from the drain before it to its start. */
	private long lastDrainCovered;

	/** The largest share of its ring a thread had filled over that stretch. */
	private double lastDrainFill;

	/**
	 * @param startNanos when the pace begins, as if a drain that found nothing ran then
	 */
	DrainPace(CollectorSettings settings, long startNanos) {
		this.quickestMillis = settings.quickestDrain().toMillis();
		this.slowestMillis = settings.slowestDrain().toMillis();
		this.targetFill = settings.drainTargetFill();
		this.lastDrainStart = startNanos;
	}

	/**
	 * A drain started at {@code startNanos} found the fullest ring at {@code fill} of its
	 * capacity, filled since the drain before it.
	 */
	void drained(long startNanos, double fill) {
		this.lastDrainCovered = startNanos - this.lastDrainStart;
		this.lastDrainStart = startNanos;
		this.lastDrainFill = fill;
	}

	/**
	 * Milliseconds from {@code nowNanos} until the next drain.
	 * @param hurried whether a request waits for a collection the schedule may bring
	 * forward before the next paced drain
	 * @param untilDueNanos how long until the next collection is due by the dump interval
	 */
	long nextMillis(long nowNanos, boolean hurried, long untilDueNanos) {
		return nextMillis(this.lastDrainFill, this.lastDrainCovered, nowNanos - this.lastDrainStart, hurried,
				untilDueNanos);
	}

	/**
	 * Milliseconds until the next drain.
	 * @param fullest the largest share of its ring a thread filled over the stretch the
	 * last drain covered
	 * @param coveredNanos that stretch: from the drain before the last one to the last
	 * one
	 * @param sinceLastDrainNanos how long ago the last drain was
	 * @param hurried whether a request waits for a collection the schedule may bring
	 * forward before the next paced drain
	 * @param untilDueNanos how long until the next collection is due by the dump interval
	 */
	long nextMillis(double fullest, long coveredNanos, long sinceLastDrainNanos, boolean hurried, long untilDueNanos) {
		long between;
		if (hurried) {
			between = this.quickestMillis;
		}
		else if (fullest <= 0) {
			between = this.slowestMillis;
		}
		else {
			// The rate the fullest ring filled at, over the stretch it filled in: a drain
			// right after another (a collection's second) finds little, in little time.
			double paced = coveredNanos / 1e6 * this.targetFill / fullest;
			between = (long) Math.max(this.quickestMillis, Math.min(this.slowestMillis, paced));
		}
		long millis = Math.max(1, between - TimeUnit.NANOSECONDS.toMillis(Math.max(0, sinceLastDrainNanos)));
		long untilDue = TimeUnit.NANOSECONDS.toMillis(Math.max(0, untilDueNanos)) + 1;
		return Math.min(millis, untilDue);
	}

}
