package dev.spanprofile.store;

/**
 * A request's time on its threads as the kernel counts it, read where each thread enters
 * and leaves the request's spans: its CPU time from the threads' own CPU clocks, and, on
 * Linux, how long they were runnable but waiting for a core, and how long they were in
 * the request at all. Exact where samples only estimate, so a request's breakdown states
 * its CPU from here when every stretch was measured, and from its samples otherwise.
 * <p>
 * Written by the collector thread only; read by views on any thread. Each change
 * publishes a new {@link Sums} in one volatile write, so a view never sees a stretch
 * counted as closed without its time, nor one figure of a stretch without the others.
 */
public final class MeasuredCpu {

	/**
	 * What a figure reads once a stretch of the request could not be measured: a partial
	 * sum must not pass for the whole.
	 */
	private static final long UNMEASURABLE = -1;

	/** Shared by every request until its first stretch. */
	private static final Sums NONE = new Sums(0, 0, 0, 0);

	private volatile Sums sums = NONE;

	/**
	 * How long the thread that started the request waited for a core between leaving its
	 * previous request and entering this one; negative where not read.
	 */
	private volatile long runQueueBeforeNanos = UNMEASURABLE;

	MeasuredCpu() {
	}

	/**
	 * When the earliest entry seen so far was made, on the clock of the change points;
	 * {@link Long#MAX_VALUE} before any.
	 */
	private long firstEntryTime = Long.MAX_VALUE;

	/**
	 * Collector thread only: a thread entered the request at {@code entryTime} after
	 * waiting {@code runQueueNanos} for a core since it left its previous request, or
	 * with that wait unknown (negative). The figure kept is the earliest entry's, the
	 * request's first thread: the collector drains threads one after another, not in time
	 * order, so a thread the request handed work to may come first. That wait is outside
	 * the request's duration (on a busy machine, mostly the thread's wake-up to take the
	 * request), so it is a figure of its own beside the breakdown, never one of its
	 * parts.
	 */
	public void waitedBeforeStart(long entryTime, long runQueueNanos) {
		if (entryTime < this.firstEntryTime) {
			this.firstEntryTime = entryTime;
			this.runQueueBeforeNanos = (runQueueNanos >= 0) ? runQueueNanos : UNMEASURABLE;
		}
	}

	/**
	 * How long the request's first thread waited for a core between its previous request
	 * and this one ({@link #waitedBeforeStart}); negative where not read (the thread's
	 * first request, a point without the kernel's figure, another change in between).
	 */
	public long runQueueBeforeNanos() {
		return this.runQueueBeforeNanos;
	}

	/** Collector thread only: a thread entered the request's spans. */
	public void stretchOpened() {
		Sums was = this.sums;
		this.sums = new Sums(was.openStretches + 1, was.cpuNanos, was.runQueueNanos, was.onThreadNanos);
	}

	/**
	 * Collector thread only: a thread left the request's spans after {@code cpuNanos} of
	 * its CPU time, {@code runQueueNanos} waiting for a core (each negative where not
	 * read: the other still counts) and {@code wallNanos} in all.
	 */
	public void stretchClosed(long cpuNanos, long runQueueNanos, long wallNanos) {
		Sums was = this.sums;
		this.sums = new Sums(was.openStretches - 1, (cpuNanos >= 0) ? add(was.cpuNanos, cpuNanos) : UNMEASURABLE,
				(runQueueNanos >= 0) ? add(was.runQueueNanos, runQueueNanos) : UNMEASURABLE,
				add(was.onThreadNanos, Math.max(0, wallNanos)));
	}

	/**
	 * Collector thread only: an open stretch cannot be measured (its change points were
	 * lost, or it mixed requests).
	 */
	public void stretchLost() {
		this.sums = new Sums(this.sums.openStretches - 1, UNMEASURABLE, UNMEASURABLE, UNMEASURABLE);
	}

	/**
	 * Collector thread only: part of the request ran where no clock was read (a virtual
	 * thread, say).
	 */
	public void partUnmeasured() {
		this.sums = new Sums(this.sums.openStretches, UNMEASURABLE, UNMEASURABLE, UNMEASURABLE);
	}

	private static long add(long sum, long nanos) {
		return (sum == UNMEASURABLE) ? UNMEASURABLE : sum + nanos;
	}

	/**
	 * The request's CPU time in nanoseconds, or {@code -1} while it is not known in full:
	 * a stretch is still open, one could not be measured, or none was (a tracer that
	 * reports no change points).
	 */
	public long nanosIfComplete() {
		Sums complete = complete();
		return (complete != null) ? complete.cpuNanos : -1;
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

	/** Every figure at once, or {@code null} while the CPU time is not known in full. */
	public Sums complete() {
		Sums now = this.sums;
		return (now.openStretches == 0 && now.cpuNanos > 0) ? now : null;
	}

	/**
	 * Every figure at once, or {@code null} while the run-queue wait is not known in
	 * full: with the CPU clocks read or not ({@link Sums#cpuNanos()} negative then), so
	 * that a request's wait for a core is measured where its CPU is counted from samples.
	 */
	public Sums scheduledIfComplete() {
		Sums now = this.sums;
		return (now.openStretches == 0 && now.onThreadNanos > 0 && now.scheduled()) ? now : null;
	}

	/**
	 * The sums over a request's stretches, as one change left them.
	 *
	 * @param openStretches stretches entered and not yet left
	 * @param cpuNanos CPU time, {@code -1} once a stretch could not be measured or had no
	 * CPU clock read
	 * @param runQueueNanos time runnable but not running (waiting for a core), {@code -1}
	 * where a stretch had no figure for it
	 * @param onThreadNanos time from each entry to its exit, added over the threads;
	 * {@code -1} once a stretch could not be measured
	 */
	public record Sums(int openStretches, long cpuNanos, long runQueueNanos, long onThreadNanos) {

		/** Whether the run-queue wait, and so the time blocked, is known. */
		public boolean scheduled() {
			return this.runQueueNanos >= 0 && this.onThreadNanos >= 0;
		}

		/**
		 * Time on the request's threads neither running nor runnable: blocked (I/O,
		 * locks, parks, sleeps), or {@code -1} where not known (the CPU clocks too).
		 */
		public long blockedNanos() {
			return (scheduled() && this.cpuNanos >= 0)
					? Math.max(0, this.onThreadNanos - this.cpuNanos - this.runQueueNanos) : -1;
		}

	}

}
