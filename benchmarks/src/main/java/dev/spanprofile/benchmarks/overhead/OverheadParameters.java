package dev.spanprofile.benchmarks.overhead;

import java.time.Duration;
import java.util.List;

/**
 * @param connections concurrent keep-alive connections of the closed-loop load
 * @param workload the application under load and its request
 * @param warmup load before the first measured window of an application, for the JIT; longer while the JIT is
 * still busy, up to {@code maxWarmup}
 * @param maxWarmup the longest warm-up
 * @param window length of one measured window of a separate run
 * @param processRounds rounds of separate application runs, each round one run per configuration
 * @param switchPairs on/off window pairs per interval in the runtime-switch comparison
 * @param switchWindow length of one measured window of the runtime-switch comparison
 * @param switchSettle load after each switch before the window is measured
 * @param processSettings settings compared with profiling off in separate runs
 * @param switchSettings settings compared with profiling off in one switched application each
 */
public record OverheadParameters(int connections, Workload workload, Duration warmup, Duration maxWarmup, Duration window,
		int processRounds, int switchPairs, Duration switchWindow, Duration switchSettle,
		List<ProfilerSetting> processSettings, List<ProfilerSetting> switchSettings) {

	/**
	 * What docs/benchmarks.md reports; about nine minutes. Separate runs only for the defaults, the switched
	 * comparison also for a 1 ms interval and for the {@code ctimer} event. Switched windows are short and many: the
	 * shorter the time between the two windows of a pair, the less the rest of the machine changes in between.
	 */
	public static OverheadParameters full() {
		return new OverheadParameters(4, Workload.work(300_000), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(8), 3,
				6, Duration.ofSeconds(3), Duration.ofSeconds(2), List.of(ProfilerSetting.defaults()),
				List.of(ProfilerSetting.defaults(), ProfilerSetting.of("cpu", Duration.ofMillis(1)),
						ProfilerSetting.of("ctimer", Duration.ofMillis(10))));
	}

}
