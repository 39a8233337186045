package dev.spanprofile.store;

/**
 * A span's CPU time, and where the scheduler's figures were read its time waiting for a
 * core and blocked, as every view and log line states them: read from its request's
 * threads' CPU clocks when they measured the whole request ({@link MeasuredCpu}), else
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
		MeasuredCpu.Sums measured = span.isLocalRoot() ? span.measuredCpu().complete() : null;
		if (measured == null) {
			long sampledNanos = applicationSamples * intervalNanos;
			MeasuredCpu.Sums scheduled = span.isLocalRoot() ? span.measuredCpu().scheduledIfComplete() : null;
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

}
