package dev.spanprofile.aggregate;

import java.util.List;

import dev.spanprofile.profile.WaitKind;

/**
 * Where the time of a set of a name's requests went, added up over those requests: a
 * window of its page, a selection of its heatmap, one side of a comparison. The parts add
 * up to the requests' total duration as each request's own do:
 * {@code durationNanos = cpuNanos + waits + coreWaitNanos + shortWaitNanos +
 * unaccountedNanos - overlapNanos}, where the waits are {@link #waits()} added up.
 *
 * @param requests the requests added up
 * @param durationNanos their durations added up
 * @param cpuRequests those whose CPU was sampled or measured
 * @param cpuNanos their CPU time: measured, or samples times the interval; the profiler's
 * own work on their threads is in it
 * @param cpuSamples their CPU samples, what an estimate from samples rests on
 * @param measuredRequests those whose CPU was read from their threads' CPU clocks
 * @param scheduledRequests those whose time waiting for a core was read from the kernel
 * @param coreWaitNanos their time runnable but not running, less what recorded waits
 * include
 * @param coreWaitInWaitsNanos what of the kernel's run-queue time recorded waits include
 * @param shortWaitNanos their time blocked that no recorded wait covers, of those whose
 * CPU was measured too
 * @param unaccountedNanos what each request's parts left of its duration, added up
 * @param overlapNanos what each request's parts exceeded its duration by, added up
 * @param waits their recorded waits by kind and detail, longest first
 */
public record RequestsBreakdown(long requests, long durationNanos, long cpuRequests, long cpuNanos, long cpuSamples,
		long measuredRequests, long scheduledRequests, long coreWaitNanos, long coreWaitInWaitsNanos,
		long shortWaitNanos, long unaccountedNanos, long overlapNanos, List<Waits> waits) {

	/** No request. */
	public static final RequestsBreakdown NONE = new RequestsBreakdown(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of());

	/** The recorded waits added up. */
	public long waitNanos() {
		long sum = 0;
		for (Waits wait : this.waits) {
			sum += wait.nanos();
		}
		return sum;
	}

	/**
	 * Waits of one kind on one thing.
	 *
	 * @param kind the kind, {@code null} for a leaf that is no wait the engine names
	 * @param detail what they waited on (a peer as the application named it, else
	 * {@code host:port}; a file; a monitor's class); {@code null} when not named
	 * @param others whether this adds up details beyond the bound, not named one by one
	 * @param nanos the time waited
	 * @param count how many waits
	 */
	public record Waits(WaitKind kind, String detail, boolean others, long nanos, long count) {
	}

}
