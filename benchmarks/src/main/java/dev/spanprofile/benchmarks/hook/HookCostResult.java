package dev.spanprofile.benchmarks.hook;

import java.time.Duration;

/**
 * What one span activation plus deactivation costs, beside the clock read it is judged
 * against.
 *
 * @param clockRead one {@code System.nanoTime()}
 * @param bare {@code makeCurrent()}/{@code close()} on OpenTelemetry's own storage
 * @param stopped the same with spanprofile's hook installed and the profiler stopped
 * @param recording the same while the profiler runs
 * @param singleScopeStopped the proposed single-scope hook, profiler stopped
 * @param singleScopeRecording the proposed single-scope hook, profiler running
 */
public record HookCostResult(HookCost.Measurement clockRead, HookCost.Measurement bare, HookCost.Measurement stopped,
		HookCost.Measurement recording, HookCost.Measurement singleScopeStopped,
		HookCost.Measurement singleScopeRecording, int rounds, int iterations, Duration iterationTime) {

	/** Time the running hook adds to one activation plus deactivation. */
	public double addedNanos() {
		return this.recording.nanos() - this.bare.nanos();
	}

	/**
	 * {@link #addedNanos()} in clock reads: the pair reads the clock twice, once per
	 * change point.
	 */
	public double addedClockReads() {
		return addedNanos() / this.clockRead.nanos();
	}

	/** Bytes the running hook adds per activation plus deactivation. */
	public double addedBytes() {
		return this.recording.bytes() - this.bare.bytes();
	}

}
