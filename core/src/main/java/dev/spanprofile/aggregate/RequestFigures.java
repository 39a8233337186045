package dev.spanprofile.aggregate;

import dev.spanprofile.store.SpanCpuTime;

/**
 * What a finished request's breakdown is made of besides its waits, as its name's
 * aggregates fold it.
 *
 * @param durationNanos its duration
 * @param cpuNanos its CPU time, negative where CPU is not sampled
 * @param measured whether that was read from its threads' CPU clocks
 * @param cpuSamples its CPU samples
 * @param runQueueNanos its threads' time runnable but not running, negative where not
 * read
 * @param blockedNanos their time blocked, negative where not read, an estimate where the
 * CPU time is
 */
record RequestFigures(long durationNanos, long cpuNanos, boolean measured, long cpuSamples, long runQueueNanos,
		long blockedNanos) {

	/**
	 * @param cpuIntervalNanos the CPU time one sample stands for, negative where CPU is
	 * not sampled
	 */
	static RequestFigures of(long durationNanos, SpanCpuTime cpu, long cpuSamples, long cpuIntervalNanos) {
		if (cpuIntervalNanos < 0) {
			return new RequestFigures(durationNanos, -1, false, 0, -1, -1);
		}
		return new RequestFigures(durationNanos, cpu.nanos(), cpu.measured(), cpuSamples, cpu.runQueueNanos(),
				cpu.blockedNanos());
	}

}
