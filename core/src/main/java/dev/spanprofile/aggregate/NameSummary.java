package dev.spanprofile.aggregate;

import java.util.List;

/**
 * Latency of one span name over a window, from every local root of that name that ended
 * in it (stored or not), and the samples folded into its profiles.
 *
 * @param name the span name, or {@link AggregateSettings#OTHER}
 * @param count spans that ended, and requests that tracing did not sample
 * @param errors those with status ERROR
 * @param p50Nanos median duration (to two significant digits)
 * @param p90Nanos 90th percentile duration
 * @param p99Nanos 99th percentile duration
 * @param maxNanos longest duration, exact
 * @param cpuSamples CPU samples folded into the name's profiles
 * @param wallSamples wall-clock samples folded into the name's profiles
 * @param slowest ids of the slowest spans, slowest first (they may no longer be stored)
 * @param totalNanos the spans' durations added up (from the latency histogram: to about
 * two significant digits)
 * @param waitNanos nanoseconds of waits folded into the name's profiles
 * @param unsampled of {@code count}, the requests that tracing did not sample
 * @param unsampledProfiled unsampled requests whose samples are folded into the name's
 * profiles
 */
public record NameSummary(String name, long count, long errors, long p50Nanos, long p90Nanos, long p99Nanos,
		long maxNanos, long cpuSamples, long wallSamples, List<String> slowest, long totalNanos, long waitNanos,
		long unsampled, long unsampledProfiled) {

	/** Of {@code count}, the spans that tracing sampled. */
	public long sampled() {
		return this.count - this.unsampled;
	}

}
