package dev.spanprofile.benchmarks.report;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.spanprofile.benchmarks.accuracy.AccuracyParameters;
import dev.spanprofile.benchmarks.accuracy.AccuracyResult;
import dev.spanprofile.benchmarks.hook.HookCost.Measurement;
import dev.spanprofile.benchmarks.hook.HookCostResult;
import dev.spanprofile.benchmarks.memory.MemoryParameters;
import dev.spanprofile.benchmarks.memory.MemoryResult;
import dev.spanprofile.benchmarks.overhead.OverheadParameters;
import dev.spanprofile.benchmarks.overhead.OverheadResult;
import dev.spanprofile.benchmarks.overhead.OverheadResult.Window;
import dev.spanprofile.benchmarks.overhead.ProfilerSetting;
import dev.spanprofile.benchmarks.overhead.TwinParameters;
import dev.spanprofile.benchmarks.overhead.TwinResult;
import dev.spanprofile.benchmarks.overhead.Workload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The report judges every goal from the figures it is given. */
class BenchmarkReportTest {

	private static final Machine MACHINE = new Machine(2, "Test CPU", 24L << 30, "Linux", "OpenJDK 17", 0.5);

	@Test
	void judgesEachGoalFromTheFigures() {
		HookCostResult hook = new HookCostResult(new Measurement(20, 19, 22, 0), new Measurement(8, 7, 9, 0),
				new Measurement(12, 11, 13, 32), new Measurement(40, 38, 45, 56), new Measurement(9, 8, 10, 0),
				new Measurement(30, 29, 31, 0), 3, 1, Duration.ofSeconds(1));
		ProfilerSetting ctimer = ProfilerSetting.of("ctimer", Duration.ofMillis(10));
		OverheadParameters parameters = new OverheadParameters(4, Workload.work(1000), Duration.ofSeconds(1),
				Duration.ofSeconds(1), Duration.ofSeconds(1), 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(1),
				List.of(ProfilerSetting.defaults()), List.of(ProfilerSetting.defaults(), ctimer));
		String on = "on, defaults (ctimer, 20 ms, waits)";
		// Side by side, CPU per request, without JIT, request threads, throughput, p99:
		// the page within every goal in the median (one pair is not, and does not count),
		// the work application over the CPU goal.
		TwinResult page = new TwinResult(Workload.pages(), ProfilerSetting.production(),
				List.of(new double[] { 1.01, 1.0, 1.0, 0.99, 1.0 }, new double[] { 1.015, 1.005, 1.0, 1.0, 1.02 },
						new double[] { 1.05, 1.03, 1.04, 0.95, 1.2 }));
		TwinResult work = new TwinResult(Workload.work(1000), ProfilerSetting.defaults(),
				List.of(new double[] { 1.04, 1.02, 1.02, 0.98, 1.03 }, new double[] { 1.02, 1.01, 1.02, 0.99, 1.01 }));
		OverheadResult overhead = new OverheadResult(parameters, List.of(window("off", 1000, 10), window(on, 900, 11)),
				Map.of(ProfilerSetting.defaults().label(), List.of(window(on, 995, 10.1), window("off", 1000, 10)),
						ctimer.label(), List.of(window("off", 1000, 10), window("on, ctimer, 10 ms", 970, 10.0))),
				TwinParameters.full(), List.of(page, work));
		AccuracyResult accuracy = new AccuracyResult(AccuracyParameters.full(), "cpu", List.of(
				new AccuracyResult.SpanOutcome("a", 0, 1_000_000_000, 100, 105, 104, 0, Duration.ofMillis(900), 0),
				new AccuracyResult.SpanOutcome("b", 1, 1_000_000_000, 100, 80, 79, 0, Duration.ofMillis(1600), 0)), 0);
		MemoryResult memory = new MemoryResult(MemoryParameters.full(), 600_000, Duration.ofSeconds(60), 30 << 20,
				90_000, List.of(new MemoryResult.Checkpoint(Duration.ofSeconds(15), 80_000, 29 << 20, 31 << 20)),
				90_000, 30 << 20, 40 << 20);
		String report = BenchmarkReport.render(new Results(MACHINE, Instant.parse("2026-01-02T03:04:05Z"),
				Duration.ofMinutes(14), "benchmarks/run.sh", hook, overhead, accuracy, memory, Map.of()));

		assertThat(goal(report, "Hook: the running wrapper")).contains("+32.0 ns = 1.60 clock reads")
			.endsWith("**not met** |");
		assertThat(goal(report, "Hook: allocates nothing")).contains("56 B/op with the wrapper vs 0 B/op")
			.endsWith("**not met** |");
		assertThat(goal(report, "Throughput loss ≤ 1 % with defaults (ctimer, 20 ms, waits)"))
			.contains("one JVM switched: -0.5 %")
			.contains("separate runs: -10.0 %")
			.endsWith("one JVM switched: met; separate runs: **not met** |");
		assertThat(goal(report, "p99 latency increase ≤ 2 % with defaults")).contains("+1.0 %")
			.endsWith("one JVM switched: met; separate runs: **not met** |");
		assertThat(goal(report, "spanprofile's collector thread's share of the application's CPU with defaults"))
			.contains("0.50 %");
		assertThat(goal(report, "Throughput loss with ctimer, 10 ms")).contains("one JVM switched: -3.0 %")
			.doesNotContain("separate runs")
			.endsWith("| reported |");
		assertThat(report).contains("| one JVM switched, ctimer, 10 ms | 0.970 [0.970..0.970] |")
			.doesNotContain("| separate runs, ctimer");
		String production = "Page application, recommended production setting (ctimer, 20 ms, 10 % traced): ";
		assertThat(goal(report, production + "CPU per request on/off ≤ 1.02"))
			.contains("1.015 [1.013..1.033] {1.010..1.050} (3 pairs)")
			.endsWith("| met |");
		assertThat(goal(report, production + "throughput on/off ≥ 0.98")).contains("0.990 [").endsWith("| met |");
		assertThat(goal(report, production + "p99 latency on/off ≤ 1.03")).contains("1.020 [").endsWith("| met |");
		assertThat(goal(report, "`work` application, defaults (ctimer, 20 ms, waits): CPU per request on/off ≤ 1.05"))
			.contains("1.030 [1.025..1.035]")
			.endsWith("| met |");
		assertThat(goal(report, "`work` application, defaults (ctimer, 20 ms, waits): throughput on/off ≥ 0.98"))
			.contains("0.985 [")
			.endsWith("| met |");
		assertThat(goal(report, production + "CPU per request without the JIT compiler threads on/off"))
			.contains("1.005 [1.003..1.018] {1.000..1.030}")
			.endsWith("| reported |");
		assertThat(report).contains("| Page application, recommended production setting (ctimer, 20 ms, 10 % traced) "
				+ "| 1.015 [1.013..1.033] {1.010..1.050} | 1.005 [1.003..1.018] {1.000..1.030} "
				+ "| 1.000 [1.000..1.020] {1.000..1.040} |");
		assertThat(report).contains("after at least 60 s (240 s for the page application) of warm-up with profiling on")
			.contains("15 s windows, each after 30 s of load");
		assertThat(goal(report, "Misattributed samples")).contains("0.00 %").endsWith("| met |");
		assertThat(goal(report, "Samples within ±15 %")).contains("1 of 2 spans").endsWith("**not met** |");
		assertThat(goal(report, "Profile complete")).contains("max 1600 ms").endsWith("**not met** |");
		assertThat(goal(report, "Heap held by the store under its budget (32.0 MiB)")).contains("40.0 MiB retained")
			.endsWith("**not met** |");
		assertThat(goal(report, "The store's own estimate")).contains("at most 30.0 MiB").endsWith("within |");
		assertThat(goal(report, "Bytes per stored span")).contains("466 B real, 350 B estimated");
		assertThat(report).contains("| hook installed, profiler recording | 40.0 | 38.0 .. 45.0 | 56 |");
		assertThat(report).contains("2 cores (Test CPU)").contains("```bash\nbenchmarks/run.sh\n```");
		assertThat(report).doesNotContain("NaN").doesNotContain("Failed benchmarks");
	}

	@Test
	void namesFailedBenchmarksAndLeavesOutTheirSections() {
		String report = BenchmarkReport
			.render(new Results(MACHINE, Instant.now(), Duration.ofMinutes(1), "benchmarks/run.sh", null, null, null,
					null, Map.of("memory", "java.lang.IllegalStateException: boom")));
		assertThat(report).contains("## Failed benchmarks\n\n- memory: java.lang.IllegalStateException: boom")
			.doesNotContain("## Memory")
			.doesNotContain("## Hook cost");
	}

	private static Window window(String configuration, double throughput, double p99) {
		return new Window(configuration, 0, (long) throughput * 10, 0, throughput, p99 / 4, p99,
				2000 / throughput * 1000, 1900 / throughput * 1000,
				configuration.equals("off") ? 0 : 10 / throughput * 1000);
	}

	private static String goal(String report, String start) {
		for (String line : report.split("\n")) {
			if (line.startsWith("| " + start)) {
				return line;
			}
		}
		throw new AssertionError("No goal row starting with '" + start + "' in\n" + report);
	}

}
