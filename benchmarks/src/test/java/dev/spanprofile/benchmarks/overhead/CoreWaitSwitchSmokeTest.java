package dev.spanprofile.benchmarks.overhead;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code SwitchProbe --switch core-wait} runnable: two copies of the page
 * application with the core-wait reads switched in opposite phase, one short pair under
 * real load. The switch fails unless the application reports the state asked for; only
 * checks that every figure was measured, the results files hold how good they are.
 */
class CoreWaitSwitchSmokeTest {

	/** As in {@link OverheadBenchmarkSmokeTest}: seconds-long copies need no C2. */
	private static final List<String> SHORT_LIVED_JVM = List.of("-XX:TieredStopAtLevel=1");

	@Test
	void coreWaitReadsSwitchedSideBySideGiveEveryFigure() throws Exception {
		TwinSwitch twins = new TwinSwitch(Workload.pages(), 1, Duration.ofSeconds(1), Duration.ofSeconds(1),
				Duration.ofMillis(300), 1, false, SHORT_LIVED_JVM, Path.of("target", "benchmark-logs"), null);
		twins.toggle = (copy, on) -> copy.app().setCoreWait(on);
		twins.requestsPerSecondEach = 50;
		TwinResult result = twins.run(new ProfilerSetting("core-wait reads", Map.of(), false));
		assertThat(result.pairs()).hasSize(1);
		for (TwinResult.Measure measure : TwinResult.Measure.values()) {
			assertThat(result.spread(measure).median()).as(measure.title()).isPositive().isFinite();
		}
	}

}
