package dev.spanprofile.benchmarks.overhead;

import java.time.Duration;
import java.util.List;

/**
 * @param connections concurrent keep-alive connections of the closed-loop load
 * @param workload the application under load and its request
 * @param warmup load before the first measured window of an application, for the JIT;
 * longer while the JIT is still busy, up to {@code maxWarmup}
 * @param maxWarmup the longest warm-up
 * @param window length of one measured window of a separate run
 * @param processRounds rounds of separate application runs, each round one run per
 * configuration
 * @param switchPairs on/off window pairs per interval in the runtime-switch comparison
 * @param switchWindow length of one measured window of the runtime-switch comparison
 * @param switchSettle load after each switch before the window is measured
 * @param processSettings settings compared with profiling off in separate runs
 * @param switchSettings settings compared with profiling off in one switched application
 * each
 */
public record OverheadParameters(int connections, Workload workload, Duration warmup, Duration maxWarmup,
		Duration window, int processRounds, int switchPairs, Duration switchWindow, Duration switchSettle,
		List<ProfilerSetting> processSettings, List<ProfilerSetting> switchSettings) {

	/**
	 * What the suite's run report holds; about four minutes. Separate runs for the
	 * defaults: the one comparison in which the starter is really absent. No single
	 * switched application: two copies switched side by side
	 * ({@link TwinParameters#full()}) resolve a few percent where it could not.
	 */
	public static OverheadParameters full() {
		return new OverheadParameters(4, Workload.work(300_000), Duration.ofSeconds(10), Duration.ofSeconds(30),
				Duration.ofSeconds(8), 3, 0, Duration.ofSeconds(3), Duration.ofSeconds(2),
				List.of(ProfilerSetting.defaults()), List.of());
	}

}
