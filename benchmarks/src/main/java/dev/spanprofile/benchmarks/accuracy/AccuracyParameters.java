package dev.spanprofile.benchmarks.accuracy;

import java.time.Duration;

/**
 * @param threads concurrent threads, each running its spans one after another
 * @param rounds spans per thread
 * @param cpuPerWeight CPU time of the lightest span; the others burn two to four times as
 * much
 * @param interval sampling interval
 * @param dumpInterval how often the engine collects samples
 */
public record AccuracyParameters(int threads, int rounds, Duration cpuPerWeight, Duration interval,
		Duration dumpInterval) {

	/**
	 * What docs/performance.md reports: 8 threads on 2 cores, 24 spans of 0.2 to 0.8 s
	 * CPU, default settings.
	 */
	public static AccuracyParameters full() {
		return new AccuracyParameters(8, 3, Duration.ofMillis(200), Duration.ofMillis(10), Duration.ofSeconds(1));
	}

}
