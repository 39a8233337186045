package dev.spanprofile.store;

/**
 * A request's CPU time read from its threads' own CPU clocks: each stretch from a thread
 * entering the request's spans to leaving them adds the clock's difference. Exact where
 * samples only estimate, so a request's breakdown states its CPU from here when every
 * stretch was measured, and from its samples otherwise.
 * <p>
 * Written by the collector thread only; read by views on any thread.
 */
public final class MeasuredCpu {

	/**
	 * Set for good when a stretch of the request could not be measured: a partial sum
	 * must not pass for the whole.
	 */
	private static final long UNMEASURABLE = -1;

	private volatile long nanos;

	private volatile int openStretches;

	MeasuredCpu() {
	}

	/** Collector thread only: a thread entered the request's spans. */
	public void stretchOpened() {
		this.openStretches++;
	}

	/**
	 * Collector thread only: a thread left the request's spans after {@code cpuNanos} of
	 * its CPU time.
	 */
	public void stretchClosed(long cpuNanos) {
		this.openStretches--;
		if (this.nanos != UNMEASURABLE) {
			this.nanos += Math.max(0, cpuNanos);
		}
	}

	/**
	 * Collector thread only: an open stretch cannot be measured (its change points were
	 * lost, or it mixed requests).
	 */
	public void stretchLost() {
		this.openStretches--;
		this.nanos = UNMEASURABLE;
	}

	/**
	 * Collector thread only: part of the request ran where no clock was read (a virtual
	 * thread, say).
	 */
	public void partUnmeasured() {
		this.nanos = UNMEASURABLE;
	}

	/**
	 * The request's CPU time in nanoseconds, or {@code -1} while it is not known in full:
	 * a stretch is still open, one could not be measured, or none was (a tracer that
	 * reports no change points).
	 */
	public long nanosIfComplete() {
		long measured = this.nanos;
		return (this.openStretches == 0 && measured > 0) ? measured : -1;
	}

	/**
	 * The request's own CPU time when measured in full: the clocks' sum less
	 * {@code profilerNanos}, the profiler's own work on its threads, which a thread's
	 * clock counts as the thread's; {@code -1} when not measured in full.
	 */
	public long applicationNanos(long profilerNanos) {
		long measured = nanosIfComplete();
		return (measured >= 0) ? Math.max(0, measured - profilerNanos) : -1;
	}

}
