package dev.spanprofile.store;

/**
 * A span's CPU time, and where the scheduler's figures were read its time waiting for a
 * core and blocked, as every view and log line states them: read from its request's
 * threads' CPU clocks when they measured the whole request ({@link Measured}), else
 * counted from its CPU samples, each standing for one sampling interval. The one place
 * that makes this choice, so that a span's CPU share, its time breakdown and its
 * slow-request line never disagree; made once per response, so that the measurement is
 * read once even while it changes.
 * <p>
 * Either way the profiler's own work on the span's threads is left out: its samples are
 * counted apart, and a thread's clock counts that work as the thread's.
 *
 * @param nanos the application's CPU time in nanoseconds, negative where CPU is not
 * sampled
 * @param measured whether {@code nanos} was read from the threads' clocks rather than
 * counted from samples
 * @param profilerSamples CPU samples that caught the profiler's own code on the span's
 * threads
 * @param profilerNanos the CPU time those samples stand for
 * @param runQueueNanos how long the request's threads were runnable but not running,
 * waiting for a core, as the kernel counted it; negative where not measured
 * @param blockedNanos how long they were in the request neither running nor runnable
 * (every wait, long or short); negative where not measured. Where the CPU time is counted
 * from samples, an estimate: their time in the request less that CPU time and the wait
 * for a core, which tells how much of the wait for a core recorded waits hold, not what
 * short waits add up to
 */
public record SpanCpuTime(long nanos, boolean measured, long profilerSamples, long profilerNanos, long runQueueNanos,
		long blockedNanos) {

	/** A CPU time without figures from the scheduler. */
	public SpanCpuTime(long nanos, boolean measured, long profilerSamples, long profilerNanos) {
		this(nanos, measured, profilerSamples, profilerNanos, -1, -1);
	}

	/**
	 * Where CPU is not sampled: no CPU time, which a breakdown takes a negative figure
	 * for.
	 */
	public static final SpanCpuTime NOT_SAMPLED = new SpanCpuTime(-1, false, 0, 0);

	/**
	 * The CPU time of {@code span}: only a local root's whole request is measured, a
	 * child span's share of it is not, so a child's is always counted from its samples.
	 * @param applicationSamples the span's CPU samples of the application's code
	 * @param profilerSamples the span's CPU samples of the profiler's own code
	 * @param intervalNanos the CPU time one sample stands for
	 */
	public static SpanCpuTime of(SpanRecord span, long applicationSamples, long profilerSamples, long intervalNanos) {
		long profilerNanos = profilerSamples * intervalNanos;
		// Read once: every figure below comes from the same change.
		Measured figures = span.isLocalRoot() ? span.measuredCpu() : null;
		Measured measured = (figures != null) ? figures.complete() : null;
		if (measured == null) {
			long sampledNanos = applicationSamples * intervalNanos;
			Measured scheduled = (figures != null) ? figures.scheduledIfComplete() : null;
			if (scheduled == null) {
				return new SpanCpuTime(sampledNanos, false, profilerSamples, profilerNanos);
			}
			// The run-queue wait read without the CPU clocks: measured all the same.
			return new SpanCpuTime(sampledNanos, false, profilerSamples, profilerNanos, scheduled.runQueueNanos(),
					Math.max(0, scheduled.onThreadNanos() - sampledNanos - profilerNanos - scheduled.runQueueNanos()));
		}
		// The scheduler's figures with the CPU clocks' or not at all: a breakdown's parts
		// add up only when they come from the same stretches.
		return new SpanCpuTime(Math.max(0, measured.cpuNanos() - profilerNanos), true, profilerSamples, profilerNanos,
				measured.scheduled() ? measured.runQueueNanos() : -1, measured.blockedNanos());
	}

	/**
	 * A request's time on its threads as the kernel counts it, read where each thread
	 * enters and leaves the request's spans, as one change left it: its CPU time from the
	 * threads' own CPU clocks, and, on Linux, how long they were runnable but waiting for
	 * a core, and how long they were in the request at all. Exact where samples only
	 * estimate, so {@link SpanCpuTime#of} states a request's CPU from here when every
	 * stretch was measured, and from its samples otherwise.
	 * <p>
	 * Immutable: its request's local root holds the latest
	 * ({@link SpanRecord#measuredCpu()}), replaced by the collector thread in one
	 * volatile write per change ({@link SpanRecord#measureCpu}), so a view never sees a
	 * stretch counted as closed without its time, nor one figure of a stretch without the
	 * others. A figure that reads {@code -1} could not be measured for some stretch: a
	 * partial sum must not pass for the whole.
	 *
	 * @param openStretches stretches entered and not yet left
	 * @param cpuNanos CPU time, {@code -1} once a stretch could not be measured or had no
	 * CPU clock read
	 * @param runQueueNanos time runnable but not running (waiting for a core), {@code -1}
	 * where a stretch had no figure for it
	 * @param onThreadNanos time from each entry to its exit, added over the threads;
	 * {@code -1} once a stretch could not be measured
	 * @param runQueueBeforeNanos how long the request's first thread waited for a core
	 * between its previous request and this one ({@link #waitedBeforeStart}); {@code -1}
	 * where not read (the thread's first request, a point without the kernel's figure,
	 * another change in between)
	 * @param firstEntryTime when the earliest entry seen so far was made, on the clock of
	 * the change points; {@link Long#MAX_VALUE} before any
	 */
	public record Measured(int openStretches, long cpuNanos, long runQueueNanos, long onThreadNanos,
			long runQueueBeforeNanos, long firstEntryTime) {

		private static final long UNMEASURABLE = -1;

		/** Every request's figures until its first change. */
		public static final Measured NONE = new Measured(0, 0, 0, 0, UNMEASURABLE, Long.MAX_VALUE);

		/** A thread entered the request's spans. */
		public Measured stretchOpened() {
			return new Measured(this.openStretches + 1, this.cpuNanos, this.runQueueNanos, this.onThreadNanos,
					this.runQueueBeforeNanos, this.firstEntryTime);
		}

		/**
		 * A thread left the request's spans after {@code cpuNanos} of its CPU time,
		 * {@code runQueueNanos} waiting for a core (each negative where not read: the
		 * other still counts) and {@code wallNanos} in all.
		 */
		public Measured stretchClosed(long cpuNanos, long runQueueNanos, long wallNanos) {
			return new Measured(this.openStretches - 1, (cpuNanos >= 0) ? add(this.cpuNanos, cpuNanos) : UNMEASURABLE,
					(runQueueNanos >= 0) ? add(this.runQueueNanos, runQueueNanos) : UNMEASURABLE,
					add(this.onThreadNanos, Math.max(0, wallNanos)), this.runQueueBeforeNanos, this.firstEntryTime);
		}

		/**
		 * An open stretch cannot be measured (its change points were lost, or it mixed
		 * requests).
		 */
		public Measured stretchLost() {
			return new Measured(this.openStretches - 1, UNMEASURABLE, UNMEASURABLE, UNMEASURABLE,
					this.runQueueBeforeNanos, this.firstEntryTime);
		}

		/** Part of the request ran where no clock was read (a virtual thread, say). */
		public Measured partUnmeasured() {
			return new Measured(this.openStretches, UNMEASURABLE, UNMEASURABLE, UNMEASURABLE, this.runQueueBeforeNanos,
					this.firstEntryTime);
		}

		/**
		 * A thread entered the request at {@code entryTime} after waiting
		 * {@code runQueueNanos} for a core since it left its previous request, or with
		 * that wait unknown (negative). The figure kept is the earliest entry's, the
		 * request's first thread: the collector drains threads one after another, not in
		 * time order, so a thread the request handed work to may come first. That wait is
		 * outside the request's duration (on a busy machine, mostly the thread's wake-up
		 * to take the request), so it is a figure of its own beside the breakdown, never
		 * one of its parts.
		 */
		public Measured waitedBeforeStart(long entryTime, long runQueueNanos) {
			if (entryTime >= this.firstEntryTime) {
				return this;
			}
			return new Measured(this.openStretches, this.cpuNanos, this.runQueueNanos, this.onThreadNanos,
					(runQueueNanos >= 0) ? runQueueNanos : UNMEASURABLE, entryTime);
		}

		private static long add(long sum, long nanos) {
			return (sum == UNMEASURABLE) ? UNMEASURABLE : sum + nanos;
		}

		/**
		 * The request's CPU time in nanoseconds, or {@code -1} while it is not known in
		 * full: a stretch is still open, one could not be measured, or none was (a tracer
		 * that reports no change points).
		 */
		public long nanosIfComplete() {
			Measured complete = complete();
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

		/** These figures, or {@code null} while the CPU time is not known in full. */
		public Measured complete() {
			return (this.openStretches == 0 && this.cpuNanos > 0) ? this : null;
		}

		/**
		 * These figures, or {@code null} while the run-queue wait is not known in full:
		 * with the CPU clocks read or not ({@link #cpuNanos()} negative then), so that a
		 * request's wait for a core is measured where its CPU is counted from samples.
		 */
		public Measured scheduledIfComplete() {
			return (this.openStretches == 0 && this.onThreadNanos > 0 && scheduled()) ? this : null;
		}

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
