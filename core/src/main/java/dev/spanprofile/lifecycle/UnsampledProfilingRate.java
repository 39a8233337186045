package dev.spanprofile.lifecycle;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many of the requests that tracing did not sample have their samples profiled: at
 * most {@code perSecond} a second, and up to a second's worth at once after a quiet
 * stretch. The rest still count in their name's latency statistics.
 * <p>
 * Profiling a request costs its threads two change points and the collector a place for
 * its samples until they are folded; at nine requests in ten of a busy service, what is
 * held that long is copied by every young collection in between (two fifths of the page
 * benchmark's GC share). A quiet service is profiled whole; a busy name's graphs get a
 * steady share on top of its traced requests, which tracing already samples at random.
 * <p>
 * A request asks once as it starts: a volatile read, and a compare-and-set when it is let
 * in.
 */
public final class UnsampledProfilingRate {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	/** Every request is profiled. */
	public static final UnsampledProfilingRate UNLIMITED = new UnsampledProfilingRate(Integer.MAX_VALUE);

	private final int perSecond;

	private final long spacingNanos;

	/**
	 * When the quota would be back to whole if no request came in the meantime, on the
	 * {@code System.nanoTime()} clock: each request let in moves it on by one spacing.
	 */
	private final AtomicLong fullAt = new AtomicLong(Long.MIN_VALUE / 2);

	/**
	 * @param perSecond requests profiled a second at most; {@code 0} profiles none
	 */
	public UnsampledProfilingRate(int perSecond) {
		if (perSecond < 0) {
			throw new IllegalArgumentException(
					"profiled unsampled requests per second must be 0 or more, was " + perSecond);
		}
		this.perSecond = perSecond;
		this.spacingNanos = (perSecond > 0) ? Math.max(1, SECOND / perSecond) : Long.MAX_VALUE;
	}

	/** Whether a request starting at {@code nowNanos} is profiled. */
	public boolean admit(long nowNanos) {
		if (this.perSecond == 0) {
			return false;
		}
		if (this.perSecond == Integer.MAX_VALUE) {
			return true;
		}
		while (true) {
			long full = this.fullAt.get();
			long from = Math.max(full, nowNanos);
			// A second's worth in a row from a whole quota, then one a spacing.
			if (from - nowNanos > SECOND - this.spacingNanos) {
				return false;
			}
			if (this.fullAt.compareAndSet(full, from + this.spacingNanos)) {
				return true;
			}
		}
	}

}
