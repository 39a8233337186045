package dev.spanprofile.benchmarks.overhead;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the cost comparisons of what is decided at startup runnable: the context
 * propagation the starter turns on, switched side by side in the applications that hand
 * their work to other threads, and two copies started differently. One short pair of real
 * copies under real load each; only checks that every figure was measured, the results
 * files hold how good they are.
 */
class HandOffCostSmokeTest {

	/** As in {@link OverheadBenchmarkSmokeTest}: seconds-long copies need no C2. */
	private static final List<String> SHORT_LIVED_JVM = List.of("-XX:TieredStopAtLevel=1");

	private static final Path LOGS = Path.of("target", "benchmark-logs");

	@ParameterizedTest
	@ValueSource(strings = { "async", "reactive" })
	void contextPropagationSwitchedSideBySideGivesEveryFigure(String workload) throws Exception {
		TwinSwitch twins = new TwinSwitch(Workload.named(workload, 20_000), 1, Duration.ofSeconds(1),
				Duration.ofSeconds(1), Duration.ofMillis(300), 1, false, SHORT_LIVED_JVM, LOGS, null);
		twins.toggle = (copy, on) -> copy.app().setContextPropagation(on);
		twins.requestsPerSecondEach = 50;
		TwinResult result = twins.run(new ProfilerSetting("context propagation", Map.of(), false));
		assertThat(result.workload().label()).isEqualTo(workload);
		assertEveryMeasure(result);
	}

	@Test
	void twoCopiesStartedDifferentlyGiveEveryFigure() throws Exception {
		StartupTwins twins = new StartupTwins(Workload.async(20_000), 1, 50, Duration.ofSeconds(1),
				Duration.ofSeconds(1), 2, 1, SHORT_LIVED_JVM, LOGS);
		ProfilerSetting propagation = new ProfilerSetting("context propagation by the starter", Map.of(), false);
		assertEveryMeasure(twins.run(propagation, Map.of("spanprofile.propagate-context", "false")));
	}

	@Test
	void propertiesSplitWhereTheNextPropertyStarts() {
		assertThat(StartupTwins.properties("spanprofile.on-demand.enabled=true,spanprofile.on-demand.token=a,b"))
			.containsExactly(Map.entry("spanprofile.on-demand.enabled", "true"),
					Map.entry("spanprofile.on-demand.token", "a,b"));
	}

	private static void assertEveryMeasure(TwinResult result) {
		assertThat(result.pairs()).hasSize(1);
		for (TwinResult.Measure measure : TwinResult.Measure.values()) {
			assertThat(result.spread(measure).median()).as(measure.title()).isPositive().isFinite();
		}
	}

}
