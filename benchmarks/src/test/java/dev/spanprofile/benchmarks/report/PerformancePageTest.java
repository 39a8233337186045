package dev.spanprofile.benchmarks.report;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.spanprofile.benchmarks.overhead.OverheadParameters;
import dev.spanprofile.benchmarks.overhead.OverheadResult;
import dev.spanprofile.benchmarks.overhead.ProfilerSetting;
import dev.spanprofile.benchmarks.overhead.TwinParameters;
import dev.spanprofile.benchmarks.overhead.TwinResult;
import dev.spanprofile.benchmarks.overhead.Workload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The page quotes the newest figure of each kind, from the suite's runs and from
 * {@code SwitchProbe}'s alike, and refuses a template that names a figure no run has.
 */
class PerformancePageTest {

	private static final Machine MACHINE = new Machine(2, "Test CPU", 24L << 30, "Linux", "OpenJDK 17", 0.5);

	private static final String TABLE_TEMPLATE = "{{cost-table}}\n\nMachine: {{machines}}.\n";

	@Test
	void tabulatesTheSuitesSideBySideFiguresPerSettingApplicationAndLoad() {
		TwinResult page = new TwinResult(Workload.pages(), ProfilerSetting.production(),
				List.of(new double[] { 1.01, 1.0, 1.0, 0.99, 1.0 }, new double[] { 1.015, 1.005, 1.0, 1.0, 1.02 },
						new double[] { 1.05, 1.03, 1.04, 0.95, 1.2 }));
		TwinResult work = new TwinResult(Workload.work(1000), ProfilerSetting.defaults(),
				List.of(new double[] { 1.04, 1.02, 1.02, 0.98, 1.03 }, new double[] { 1.02, 1.01, 1.02, 0.99, 1.01 }));
		List<Figure> figures = ResultFigures.of(suite(page, work), "abc1234");

		String text = PerformancePage.render(TABLE_TEMPLATE, figures);

		assertThat(text.lines().toList()).containsSubsequence(PerformancePage.GENERATED,
				"| setting | application | load | CPU per request | throughput | p99 latency | pairs | measured |",
				"| defaults (ctimer, 20 ms, waits) | `work` | closed loop | 1.030 [1.025..1.035] {1.020..1.040} "
						+ "| 0.985 [0.982..0.988] {0.980..0.990} | 1.020 [1.015..1.025] {1.010..1.030} | 2 "
						+ "| 2026-01-02 (`abc1234`) |",
				"| recommended production setting (ctimer, 20 ms, 10 % traced) | page | closed loop "
						+ "| 1.015 [1.013..1.033] {1.010..1.050} | 0.990 [0.970..0.995] {0.950..1.000} "
						+ "| 1.020 [1.010..1.110] {1.000..1.200} | 3 | 2026-01-02 (`abc1234`) |",
				"Machine: 2 cores (Test CPU), 24 GiB, Linux, OpenJDK 17.");
	}

	@Test
	void aNewerRunReplacesWhatItMeasuredAgainAndLeavesTheRest() {
		List<Figure> figures = new ArrayList<>();
		figures.add(cpu("2026-11-27", "pages", "closed loop", 1.025, "old machine"));
		figures.add(cpu("2026-11-28", "pages", "paced 300/s", 1.033, "old machine"));
		figures.add(cpu("2026-12-05", "pages", "closed loop", 1.018, "new machine"));
		figures.add(cpu("2026-11-01", "pages", "closed loop", 1.090, "older machine"));

		String text = PerformancePage.render(TABLE_TEMPLATE
				+ "{{value side-by-side|production|cpu_per_request|pages|closed loop}} and "
				+ "{{figure side-by-side|production|cpu_per_request|pages|paced 300/s}} since {{date side-by-side}}.",
				figures);

		assertThat(text).contains("| production | page | closed loop | 1.018 [1.008..1.028] |")
			.contains("| production | page | paced 300/s | 1.033 [1.023..1.043] |")
			.doesNotContain("1.025")
			.doesNotContain("1.090")
			.contains("1.018 and 1.033 [1.023..1.043] since 2026-12-05.")
			.contains("Machine: new machine; old machine.");
		assertThat(text.indexOf("| closed loop |")).isLessThan(text.indexOf("| paced 300/s |"));
	}

	@Test
	void refusesUnknownPlaceholdersAndFiguresNoRunHas() {
		List<Figure> figures = List.of(cpu("2026-11-27", "pages", "closed loop", 1.025, "m"));
		assertThatIllegalArgumentException().isThrownBy(() -> PerformancePage.render("{{costs}}", figures))
			.withMessageContaining("Unknown placeholder {{costs}}");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PerformancePage.render("{{value side-by-side|production|p99}}", figures))
			.withMessageContaining("No figure side-by-side|production|p99");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PerformancePage.render("{{value side-by-side|production}}", figures))
			.withMessageContaining("takes BENCHMARK|SETTING|MEASURE");
		assertThatIllegalArgumentException().isThrownBy(() -> PerformancePage.render("{{cost-table}}", List.of()))
			.withMessageContaining("No side-by-side figures");
	}

	private static Figure cpu(String date, String application, String load, double median, String machine) {
		return new Figure(LocalDate.parse(date), "", "side-by-side", application, "production", load, "cpu_per_request",
				median, median - 0.01, median + 0.01, Double.NaN, Double.NaN, 6, "ratio", machine, "SwitchProbe");
	}

	private static Results suite(TwinResult... twins) {
		OverheadParameters parameters = new OverheadParameters(4, Workload.work(1000), Duration.ofSeconds(1),
				Duration.ofSeconds(1), Duration.ofSeconds(1), 0, 0, Duration.ofSeconds(1), Duration.ofSeconds(1),
				List.of(), List.of());
		OverheadResult overhead = new OverheadResult(parameters, List.of(), Map.of(), TwinParameters.full(),
				List.of(twins));
		return new Results(MACHINE, Instant.parse("2026-01-02T03:04:05Z"), Duration.ofMinutes(80), "benchmarks/run.sh",
				null, overhead, null, null, Map.of());
	}

}
