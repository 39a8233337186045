package dev.spanprofile.benchmarks.overhead;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.spanprofile.benchmarks.overhead.OverheadResult.Metric;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the overhead benchmark runnable: the real application under real load, one short round of each
 * comparison. Only checks that every figure was measured; benchmarks/run.sh reports them.
 */
class OverheadBenchmarkSmokeTest {

	@Test
	void oneShortRoundOfEachComparisonMeasuresEveryFigure() throws Exception {
		Duration interval = Duration.ofMillis(10);
		OverheadParameters parameters = new OverheadParameters(2, 20_000, Duration.ofSeconds(1), Duration.ofSeconds(1),
				Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1), Duration.ofMillis(300), List.of(interval));
		OverheadResult result = new OverheadBenchmark(parameters, Path.of("target", "benchmark-logs")).run();
		assertThat(result.processes()).hasSize(2);
		assertThat(result.switched().get(interval)).hasSize(2);
		assertThat(result.processes()).allSatisfy(OverheadBenchmarkSmokeTest::measured);
		assertThat(result.switched().get(interval)).allSatisfy(OverheadBenchmarkSmokeTest::measured);
		assertThat(result.collectorShare(interval)).isBetween(0.0, 1.0);
		for (Metric metric : Metric.values()) {
			assertThat(result.processRatio(interval, metric).count()).isEqualTo(1);
			assertThat(result.processRatio(interval, metric).median()).isPositive().isFinite();
			assertThat(result.switchRatio(interval, metric).count()).isEqualTo(1);
			assertThat(result.switchRatio(interval, metric).median()).isPositive().isFinite();
		}
	}

	private static void measured(OverheadResult.Window window) {
		assertThat(window.requests()).isPositive();
		assertThat(window.throughput()).isPositive().isFinite();
		assertThat(window.p50Millis()).isPositive().isLessThanOrEqualTo(window.p99Millis());
		assertThat(window.cpuMicrosPerRequest()).isPositive().isFinite();
		assertThat(window.cpuMicrosPerRequestWithoutJit()).isPositive().isLessThanOrEqualTo(window.cpuMicrosPerRequest());
		assertThat(window.collectorMicrosPerRequest()).isGreaterThanOrEqualTo(0)
			.isLessThanOrEqualTo(window.cpuMicrosPerRequest());
	}

}
