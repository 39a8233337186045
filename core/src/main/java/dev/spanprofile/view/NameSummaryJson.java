package dev.spanprofile.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

/**
 * One span name of the name list: how many requests ended in the window, their latency,
 * and their samples. Requests that tracing did not sample count too: they have no span
 * ids, but their latency and, once folded, their samples are here.
 *
 * @param name the span name
 * @param count requests that ended in the window
 * @param sampled of {@code count}, those tracing sampled
 * @param unsampled of {@code count}, those tracing did not sample
 * @param unsampledProfiled unsampled requests whose samples are folded into the name's
 * profiles
 * @param errors requests that ended with an error
 * @param p50Millis median latency
 * @param p90Millis 90th percentile
 * @param p99Millis 99th percentile
 * @param maxMillis the longest request
 * @param p99MillisPerBucket the p99 of each bucket of the window, oldest first;
 * {@code null} where none ended
 * @param samples CPU and wall samples folded into the name's profiles
 * @param waits how long the requests waited and on what ({@link NameWaits}), when waits
 * are recorded
 * @param coreWait how long they waited for a core, when the kernel's figures were read
 * for any of them
 * @param slowest span ids of the slowest stored requests, slowest first
 */
public record NameSummaryJson(String name, long count, long sampled, long unsampled, long unsampledProfiled,
		long errors, double p50Millis, double p90Millis, double p99Millis, double maxMillis,
		List<Double> p99MillisPerBucket, Samples samples, @JsonInclude(Include.NON_NULL) NameWaitsJson waits,
		@JsonInclude(Include.NON_NULL) NameCoreWaitJson coreWait, List<String> slowest) {

	/**
	 * Samples folded into a name's profiles.
	 *
	 * @param cpu CPU samples
	 * @param wall wall-clock samples
	 */
	public record Samples(long cpu, long wall) {
	}

}
