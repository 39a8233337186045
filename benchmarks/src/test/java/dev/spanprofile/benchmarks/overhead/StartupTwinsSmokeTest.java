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
 * Keeps the comparison of settings fixed at startup runnable on the applications that
 * hand their work to other threads: one short pair of real copies under real load. Only
 * checks that every figure was measured; the results files hold how good they are.
 */
class StartupTwinsSmokeTest {

	/** As in {@link OverheadBenchmarkSmokeTest}: seconds-long copies need no C2. */
	private static final List<String> SHORT_LIVED_JVM = List.of("-XX:TieredStopAtLevel=1");

	@ParameterizedTest
	@ValueSource(strings = { "async", "reactive" })
	void onePairWithAndWithoutContextPropagationMeasuresEveryFigure(String workload) throws Exception {
		StartupTwins twins = new StartupTwins(Workload.named(workload, 20_000), 1, 50, Duration.ofSeconds(1),
				Duration.ofSeconds(1), 2, 1, SHORT_LIVED_JVM, Path.of("target", "benchmark-logs"));
		ProfilerSetting propagation = new ProfilerSetting("context propagation by the starter", Map.of(), false);
		TwinResult result = twins.run(propagation, Map.of("spanprofile.propagate-context", "false"));
		assertThat(result.workload().label()).isEqualTo(workload);
		assertThat(result.pairs()).hasSize(1);
		for (TwinResult.Measure measure : TwinResult.Measure.values()) {
			assertThat(result.spread(measure).median()).as(measure.title()).isPositive().isFinite();
		}
	}

	@Test
	void propertiesSplitWhereTheNextPropertyStarts() {
		assertThat(StartupTwins.properties("spanprofile.on-demand.enabled=true,spanprofile.on-demand.token=a,b"))
			.containsExactly(Map.entry("spanprofile.on-demand.enabled", "true"),
					Map.entry("spanprofile.on-demand.token", "a,b"));
	}

}
