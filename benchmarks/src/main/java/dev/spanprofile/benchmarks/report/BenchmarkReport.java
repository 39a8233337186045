package dev.spanprofile.benchmarks.report;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.benchmarks.accuracy.AccuracyResult;
import dev.spanprofile.benchmarks.hook.HookCost;
import dev.spanprofile.benchmarks.hook.HookCostResult;
import dev.spanprofile.benchmarks.memory.MemoryResult;
import dev.spanprofile.benchmarks.overhead.OverheadResult;
import dev.spanprofile.benchmarks.overhead.OverheadResult.Metric;
import dev.spanprofile.benchmarks.overhead.OverheadResult.Ratio;
import dev.spanprofile.benchmarks.overhead.ProfilerSetting;
import dev.spanprofile.benchmarks.overhead.TwinResult;

/**
 * Writes one run's full report, benchmarks/results/&lt;date&gt;-suite.md: the goals with
 * the measured value beside each, then every benchmark's figures down to each window. The
 * user's page, docs/performance.md, quotes the latest of them ({@link PerformancePage}).
 */
public final class BenchmarkReport {

	private final Results results;

	private final MarkdownLines out = new MarkdownLines();

	private final SideBySideSection sideBySide = new SideBySideSection(this.out);

	private final AccuracySection accuracySection = new AccuracySection(this.out);

	private final MemorySection memorySection = new MemorySection(this.out);

	private BenchmarkReport(Results results) {
		this.results = results;
	}

	public static String render(Results results) {
		return new BenchmarkReport(results).render();
	}

	private String render() {
		header();
		goals();
		hook();
		overhead();
		AccuracyResult accuracy = this.results.accuracy();
		if (accuracy != null) {
			this.accuracySection.figures(accuracy, this.results.machine().cores());
		}
		MemoryResult memory = this.results.memory();
		if (memory != null) {
			this.memorySection.figures(memory);
		}
		failures();
		return this.out.toString();
	}

	private void header() {
		Machine machine = this.results.machine();
		line("# Benchmark run");
		line();
		line("Overhead, accuracy and memory of spanprofile, measured by `" + this.results.command() + "` on "
				+ DateTimeFormatter.ISO_LOCAL_DATE.format(this.results.started().atOffset(ZoneOffset.UTC)) + " in "
				+ minutes(this.results.took()) + ". Reproduce with:");
		line();
		line("```bash");
		line(this.results.command());
		line("```");
		line();
		line("It builds the `benchmarks` module, runs every benchmark below, writes this report and its figures "
				+ "(the CSV file of the same name) and regenerates [the performance page](../../docs/performance.md). "
				+ "The module's tests run each benchmark for a few seconds with tiny parameters, so CI keeps them "
				+ "working; they check that figures come out, never how good they are.");
		line();
		line(String.format(Locale.ROOT, "Machine: %s. Load average when the run started: %.2f.", machine.description(),
				machine.loadAverage()));
		line("The machine is shared: other builds may run at the same time, so absolute times vary between runs. "
				+ "That is why every comparison below is made side by side within one run and reported as a ratio "
				+ "with its spread.");
		line();
	}

	private void goals() {
		line("## Goals");
		line();
		line("| goal | measured | |");
		line("|---|---|---|");
		HookCostResult hook = this.results.hook();
		if (hook != null) {
			goal("Hook: the running wrapper adds at most ~1.5 clock reads to one activation + deactivation",
					String.format(Locale.ROOT,
							"+%.1f ns = %.2f clock reads (one clock read: %.1f ns); an activation "
									+ "plus deactivation records two change points, each with its own clock read",
							hook.addedNanos(), hook.addedClockReads(), hook.clockRead().nanos()),
					hook.addedClockReads() <= 1.5);
			goal("Hook: allocates nothing", String.format(Locale.ROOT,
					"%.0f B/op with the wrapper vs %.0f B/op without", hook.recording().bytes(), hook.bare().bytes()),
					hook.addedBytes() < 1);
		}
		OverheadResult overhead = this.results.overhead();
		if (overhead != null) {
			for (ProfilerSetting setting : settings(overhead)) {
				boolean judged = setting.judged();
				String with = " with " + setting.label();
				overheadGoal("Throughput loss" + (judged ? " ≤ 1 %" : "") + with, overhead, setting, Metric.THROUGHPUT,
						judged ? 0.99 : Double.NaN, false);
				overheadGoal("p99 latency increase" + (judged ? " ≤ 2 %" : "") + with, overhead, setting, Metric.P99,
						judged ? 1.02 : Double.NaN, true);
				overheadGoal("CPU time per request" + with, overhead, setting, Metric.CPU_PER_REQUEST, Double.NaN,
						true);
				overheadGoal("CPU time per request without the JIT compiler threads" + with, overhead, setting,
						Metric.CPU_PER_REQUEST_WITHOUT_JIT, Double.NaN, true);
				line(String.format(Locale.ROOT,
						"| spanprofile's collector thread's share of the application's CPU%s "
								+ "| %s (median over the windows with profiling on) | reported |",
						with, MarkdownLines.percent(overhead.collectorShare(setting))));
			}
			for (TwinResult twin : overhead.twins()) {
				this.sideBySide.goals(twin);
			}
		}
		AccuracyResult accuracy = this.results.accuracy();
		if (accuracy != null) {
			this.accuracySection.goals(accuracy);
		}
		MemoryResult memory = this.results.memory();
		if (memory != null) {
			this.memorySection.goals(memory);
		}
		line();
	}

	/**
	 * Every setting compared, in the order first seen: separate runs first, then switched
	 * ones.
	 */
	private static List<ProfilerSetting> settings(OverheadResult overhead) {
		List<ProfilerSetting> settings = new ArrayList<>(overhead.parameters().processSettings());
		for (ProfilerSetting setting : overhead.parameters().switchSettings()) {
			if (!settings.contains(setting)) {
				settings.add(setting);
			}
		}
		return settings;
	}

	private void overheadGoal(String goal, OverheadResult overhead, ProfilerSetting setting, Metric metric,
			double limit, boolean higherIsWorse) {
		Ratio switched = overhead.switchRatio(setting, metric);
		Ratio separate = overhead.processRatio(setting, metric);
		List<String> measured = new ArrayList<>();
		List<String> verdicts = new ArrayList<>();
		for (Object[] method : new Object[][] { { "one JVM switched", switched }, { "separate runs", separate } }) {
			Ratio ratio = (Ratio) method[1];
			if (ratio.count() == 0) {
				continue;
			}
			measured.add(method[0] + ": " + change(ratio));
			boolean met = higherIsWorse ? ratio.median() <= limit : ratio.median() >= limit;
			verdicts.add(method[0] + ": " + (met ? "met" : "**not met**"));
		}
		String verdict = Double.isNaN(limit) ? "reported" : String.join("; ", verdicts);
		line("| " + goal + " | " + String.join("; ", measured) + " | " + verdict + " |");
	}

	private void goal(String goal, String measured, boolean met) {
		this.out.goal(goal, measured, met);
	}

	private void hook() {
		HookCostResult hook = this.results.hook();
		if (hook == null) {
			return;
		}
		line("## Hook cost (JMH)");
		line();
		line(String.format(Locale.ROOT, "`Context.makeCurrent()` and `Scope.close()` of a context holding a sampled "
				+ "span, one thread, JMH with its GC profiler: %d rounds, each one fork per variant with %d warm-up and "
				+ "%d measured iterations of %d ms; median over the rounds, with the fastest and slowest round. The "
				+ "variants run in JVMs of their own because the hook is JVM-wide once installed "
				+ "(`ActivationHookBenchmark`, `ClockReadBenchmark`). With the profiler recording, a collector thread "
				+ "drains the change points every 50 ms as the engine does.", hook.rounds(), hook.iterations(),
				hook.iterations(), hook.iterationTime().toMillis()));
		line();
		line("| variant | ns/op | rounds | B/op |");
		line("|---|---|---|---|");
		hookRow("`System.nanoTime()` (the yardstick)", hook.clockRead());
		hookRow("OpenTelemetry's own storage, no hook", hook.bare());
		hookRow("hook installed, profiler stopped", hook.stopped());
		hookRow("hook installed, profiler recording", hook.recording());
		hookRow("proposal: single-scope hook, stopped", hook.singleScopeStopped());
		hookRow("proposal: single-scope hook, recording", hook.singleScopeRecording());
		line();
		line("Without the hook the JIT removes OpenTelemetry's scope object altogether (escape analysis), hence "
				+ "0 B/op. Where OpenTelemetry's default storage is in use the hook (`TrackingContextStorage`) takes "
				+ "its place and keeps the thread's context itself, so that one scope object both restores and records; "
				+ "while the profiler is stopped it looks at nothing and its scope is scalar-replaced like "
				+ "OpenTelemetry's. Only behind another storage does the hook wrap it, with a scope of its own. The "
				+ "single-scope proposal (`SingleScopeTrackingStorage`, measured here only) is what led there.");
		line();
	}

	private void hookRow(String variant, HookCost.Measurement measurement) {
		line(String.format(Locale.ROOT, "| %s | %.1f | %.1f .. %.1f | %.0f |", variant, measurement.nanos(),
				measurement.lowest(), measurement.highest(), measurement.bytes()));
	}

	private void overhead() {
		OverheadResult overhead = this.results.overhead();
		if (overhead == null) {
			return;
		}
		var p = overhead.parameters();
		line("## End-to-end overhead");
		line();
		line(String.format(Locale.ROOT, "A Spring MVC application (`BenchApplication`: Spring Boot %s, OpenTelemetry "
				+ "tracing of every request, one traced child step with a fixed amount of loop rounds of work: `%s`) under "
				+ "closed-loop HTTP load from %d keep-alive connections on loopback (`LoadDriver`, in the JVM that runs "
				+ "the suite). CPU per request is the application process's CPU time in a window (its threads' "
				+ "scheduler run time, from the OS) over the requests answered in it; it is also given without the JIT "
				+ "compiler threads, whose bursts (after a start, or after a switch changes what the hot code does) "
				+ "are the largest single source of noise. Warm-up goes on, up to %d s, until the JIT compiler "
				+ "threads take less than 2 %% of the application's CPU.",
				org.springframework.boot.SpringBootVersion.getVersion(), p.workload().path(), p.connections(),
				p.maxWarmup().toSeconds()));
		line();
		line(String.format(Locale.ROOT, "- **Separate runs**: %d rounds; each round starts the application once with "
				+ "`spanprofile.enabled=false` and once per setting with the starter enabled, in an order that "
				+ "rotates from round to round; one %d s window per start after at least %d s of warm-up. Includes everything "
				+ "the starter does, but runs of identical configuration differ by tens of percent on a shared "
				+ "machine.", p.processRounds(), p.window().toSeconds(), p.warmup().toSeconds()));
		if (!p.switchSettings().isEmpty()) {
			line(String.format(Locale.ROOT, "- **One JVM switched**: per setting one application (at least %d s of "
					+ "warm-up), switched with `POST /actuator/spanprofile` between %d pairs of %d s windows (on/off, "
					+ "off/on, ...; %d ms of load after each switch before the window). Steadier. Switched off, the hook "
					+ "stays installed (its stopped cost is in the hook table above) and the span processor still looks "
					+ "at every span start, so this comparison leaves those out.", p.warmup().toSeconds(),
					p.switchPairs(), p.switchWindow().toSeconds(), p.switchSettle().toMillis()));
		}
		line();
		line("Ratios are on / off: median over rounds or pairs, [lowest..highest]. Below 1 is worse for throughput, "
				+ "above 1 is worse for latency and CPU.");
		line();
		line("| comparison | throughput | p50 latency | p99 latency | CPU per request | CPU per request without JIT |");
		line("|---|---|---|---|---|---|");
		for (ProfilerSetting setting : settings(overhead)) {
			if (p.switchSettings().contains(setting)) {
				line(row("one JVM switched, " + setting.label(), (metric) -> overhead.switchRatio(setting, metric)));
			}
			if (p.processSettings().contains(setting)) {
				line(row("separate runs, " + setting.label(), (metric) -> overhead.processRatio(setting, metric)));
			}
		}
		line();
		line("Every window:");
		line();
		line("| comparison | configuration | round | requests | errors | req/s | p50 ms | p99 ms | CPU µs/request | "
				+ "without JIT | collector |");
		line("|---|---|---|---|---|---|---|---|---|---|---|");
		for (OverheadResult.Window window : overhead.processes()) {
			windowRow("separate runs", window);
		}
		for (Map.Entry<String, List<OverheadResult.Window>> entry : overhead.switched().entrySet()) {
			for (OverheadResult.Window window : entry.getValue()) {
				windowRow("one JVM, " + entry.getKey(), window);
			}
		}
		line();
		this.sideBySide.figures(overhead.twinParameters(), overhead.twins());
	}

	private static String row(String title, java.util.function.Function<Metric, Ratio> ratio) {
		StringBuilder row = new StringBuilder("| " + title + " |");
		for (Metric metric : Metric.values()) {
			row.append(' ').append(ratio.apply(metric)).append(" |");
		}
		return row.toString();
	}

	private void windowRow(String comparison, OverheadResult.Window window) {
		line(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %.0f | %.2f | %.2f | %.0f | %.0f | %.1f |",
				comparison, window.configuration(), window.round(), window.requests(), window.errors(),
				window.throughput(), window.p50Millis(), window.p99Millis(), window.cpuMicrosPerRequest(),
				window.cpuMicrosPerRequestWithoutJit(), window.collectorMicrosPerRequest()));
	}

	private void failures() {
		if (this.results.failures().isEmpty()) {
			return;
		}
		line("## Failed benchmarks");
		line();
		this.results.failures().forEach((name, message) -> line("- " + name + ": " + message.replace('\n', ' ')));
		line();
	}

	private static String change(Ratio ratio) {
		if (ratio.count() == 0) {
			return "—";
		}
		return String.format(Locale.ROOT, "%+.1f %% [%+.1f..%+.1f]", ratio.medianPercent(), (ratio.min() - 1) * 100,
				(ratio.max() - 1) * 100);
	}

	private static String minutes(Duration duration) {
		return String.format(Locale.ROOT, "%d min %02d s", duration.toMinutes(), duration.toSecondsPart());
	}

	private void line(String text) {
		this.out.line(text);
	}

	private void line() {
		this.out.line();
	}

}
