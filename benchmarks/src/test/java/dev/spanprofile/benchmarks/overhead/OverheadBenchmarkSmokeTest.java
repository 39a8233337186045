package dev.spanprofile.benchmarks.overhead;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.spanprofile.benchmarks.overhead.OverheadResult.Metric;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the overhead benchmark runnable: the real application under real load, one short
 * round of each comparison. Only checks that every figure was measured; benchmarks/run.sh
 * reports them.
 */
class OverheadBenchmarkSmokeTest {

	/**
	 * The applications live for seconds here: without C2 they start and warm up on half
	 * the CPU, and the figures checked (that each is measured, and that two copies agree
	 * within a factor) do not depend on it.
	 */
	private static final List<String> SHORT_LIVED_JVM = List.of("-XX:TieredStopAtLevel=1");

	@Test
	void oneShortRoundOfEachComparisonMeasuresEveryFigure() throws Exception {
		ProfilerSetting setting = ProfilerSetting.defaults();
		OverheadParameters parameters = new OverheadParameters(2, Workload.work(20_000), Duration.ofSeconds(1),
				Duration.ofSeconds(1), Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1), Duration.ofMillis(300),
				List.of(setting), List.of(setting));
		OverheadResult result = new OverheadBenchmark(parameters, TwinParameters.none(),
				Path.of("target", "benchmark-logs"), SHORT_LIVED_JVM)
			.run();
		assertThat(result.processes()).hasSize(2);
		assertThat(result.switched().get(setting.label())).hasSize(2);
		assertThat(result.processes()).allSatisfy(OverheadBenchmarkSmokeTest::measured);
		assertThat(result.switched().get(setting.label())).allSatisfy(OverheadBenchmarkSmokeTest::measured);
		assertThat(result.collectorShare(setting)).isBetween(0.0, 1.0);
		for (Metric metric : Metric.values()) {
			assertThat(result.processRatio(setting, metric).count()).isEqualTo(1);
			assertThat(result.processRatio(setting, metric).median()).isPositive().isFinite();
			assertThat(result.switchRatio(setting, metric).count()).isEqualTo(1);
			assertThat(result.switchRatio(setting, metric).median()).isPositive().isFinite();
		}
	}

	@Test
	void thePageHeavyApplicationRendersUnderLoadAndSwitches() throws Exception {
		ProfilerSetting setting = ProfilerSetting.defaults();
		OverheadParameters parameters = new OverheadParameters(2, Workload.pages(), Duration.ofSeconds(1),
				Duration.ofSeconds(1), Duration.ofSeconds(1), 0, 1, Duration.ofSeconds(1), Duration.ofMillis(300),
				List.of(), List.of(setting));
		OverheadResult result = new OverheadBenchmark(parameters, TwinParameters.none(),
				Path.of("target", "benchmark-logs"), SHORT_LIVED_JVM)
			.run();
		assertThat(result.processes()).isEmpty();
		assertThat(result.switched().get(setting.label())).hasSize(2)
			.allSatisfy(OverheadBenchmarkSmokeTest::measured)
			.allSatisfy((window) -> assertThat(window.errors()).as("failed page requests").isZero());
		assertThat(result.switchRatio(setting, Metric.CPU_PER_REQUEST).median()).isPositive().isFinite();
	}

	@Test
	void twoCopiesSwitchedSideBySideGiveOneRatioPerPairAndMeasure() throws Exception {
		OverheadParameters none = new OverheadParameters(2, Workload.work(20_000), Duration.ofSeconds(1),
				Duration.ofSeconds(1), Duration.ofSeconds(1), 0, 0, Duration.ofSeconds(1), Duration.ofMillis(300),
				List.of(), List.of());
		TwinParameters.Case production = new TwinParameters.Case(Workload.work(20_000), ProfilerSetting.production());
		TwinParameters twins = new TwinParameters(1, Duration.ofSeconds(1), Duration.ofSeconds(1),
				Duration.ofMillis(300), 2, List.of(production));
		OverheadResult result = new OverheadBenchmark(none, twins, Path.of("target", "benchmark-logs"), SHORT_LIVED_JVM)
			.run();
		assertThat(result.processes()).isEmpty();
		assertThat(result.twins()).hasSize(1);
		TwinResult twin = result.twins().get(0);
		assertThat(twin.workload()).isEqualTo(production.workload());
		assertThat(twin.setting()).isEqualTo(production.setting());
		assertThat(result.twin(production.workload(), ProfilerSetting.defaults())).isNull();
		assertThat(twin.pairs()).hasSize(2)
			.allSatisfy((ratios) -> assertThat(ratios).hasSize(TwinResult.Measure.values().length));
		for (TwinResult.Measure measure : TwinResult.Measure.values()) {
			TwinResult.Spread spread = twin.spread(measure);
			assertThat(spread.count()).isEqualTo(2);
			// Both copies run the same application under the same load, so a pair's ratio
			// stays near 1 even in one-second windows; a factor of four either way means
			// the two sides measured different things.
			assertThat(spread.lowest()).as(measure.title()).isGreaterThan(0.25);
			assertThat(spread.highest()).as(measure.title()).isLessThan(4.0);
			assertThat(spread.median()).isBetween(spread.lowest(), spread.highest());
		}
	}

	private static void measured(OverheadResult.Window window) {
		assertThat(window.requests()).isPositive();
		assertThat(window.throughput()).isPositive().isFinite();
		assertThat(window.p50Millis()).isPositive().isLessThanOrEqualTo(window.p99Millis());
		assertThat(window.cpuMicrosPerRequest()).isPositive().isFinite();
		assertThat(window.cpuMicrosPerRequestWithoutJit()).isPositive()
			.isLessThanOrEqualTo(window.cpuMicrosPerRequest());
		assertThat(window.collectorMicrosPerRequest()).isGreaterThanOrEqualTo(0)
			.isLessThanOrEqualTo(window.cpuMicrosPerRequest());
	}

}
