package dev.spanprofile.benchmarks.overhead;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.benchmarks.report.Figure;
import dev.spanprofile.benchmarks.report.Machine;
import dev.spanprofile.benchmarks.report.ResultFigures;
import dev.spanprofile.benchmarks.report.ResultsFile;

/**
 * The runtime-switch comparison alone, for settings given on the command line: what the
 * cost breakdowns behind docs/performance.md were measured with. Each setting gets an
 * application of its own, switched on and off between pairs of windows.
 * <p>
 * Arguments: {@code --workload pages|work|async|reactive}, {@code --rounds N} (loop
 * rounds a request of {@code work}, {@code async} and {@code reactive}),
 * {@code --pairs N}, {@code --window SECONDS}, {@code --settle SECONDS},
 * {@code --warmup SECONDS}, {@code --connections N}, {@code --threads} (CPU by thread
 * group per window; with {@code --twin}, each group's median difference on minus off),
 * {@code --jvm OPTION} (repeatable), {@code --logs DIR}, then one or more
 * {@code --setting LABEL [name=value,...]} with {@code spanprofile.*} properties and
 * {@code management.tracing.sampling.probability} (1.0 unless given: every request
 * traced); {@code --setting defaults} and {@code --setting production} without properties
 * are {@link ProfilerSetting#defaults()} and {@link ProfilerSetting#production()}, named
 * as the suite names them.
 * <p>
 * {@code --twin} measures each setting with two copies of the application switched in
 * opposite phase instead ({@link TwinSwitch}), the connections shared between them;
 * {@code --control} adds, after each pair, one in which both copies stay off;
 * {@code --cpus LIST} keeps both copies on those CPUs ({@code taskset -c}), so that they
 * share the same cores at every moment; {@code --alone OPTIONS} (twin only) runs the
 * copies with spanprofile off and switches async-profiler itself instead, started with
 * {@code start,OPTIONS} ({@link AsyncProfilerAlone}); {@code --rate N} (twin only) sends
 * each copy N requests a second on a fixed schedule instead of as fast as it answers
 * ({@link LoadDriver}): latency below capacity rather than throughput;
 * {@code --switch propagation} (twin only, {@code async} and {@code reactive}) switches
 * the context propagation the starter turned on instead of profiling, which stays on in
 * both copies ({@code handoff.PropagationSwitch}); {@code --switch core-wait} (twin only,
 * {@code pages} and {@code work}) switches the reads of how long a request waited for a
 * core ({@code spanprofile.core-wait}) the same way ({@code pages.CoreWaitSwitch});
 * {@code --switch header} {@code --header "Name: value"} (twin only) has the load's
 * requests carry the header or not instead (e.g. the one that asks for an on-demand
 * profile); {@code --results FILE} (twin only) writes each setting's ratios there as a
 * results file (benchmarks/results/, which docs/performance.md is generated from),
 * recording {@code --commit ID} as the code measured.
 */
public final class SwitchProbe {

	private SwitchProbe() {
	}

	public static void main(String[] args) throws Exception {
		String workloadName = "pages";
		int rounds = 300_000;
		String switched = "profiling";
		String header = "";
		int pairs = 8;
		int connections = 4;
		Duration window = Duration.ofSeconds(3);
		Duration settle = Duration.ofSeconds(3);
		Duration warmup = Duration.ofSeconds(20);
		Path logs = Path.of("benchmarks/target/benchmark-logs");
		List<String> jvm = new ArrayList<>();
		List<ProfilerSetting> settings = new ArrayList<>();
		boolean threads = false;
		boolean twin = false;
		boolean control = false;
		String cpus = null;
		String alone = null;
		double rate = 0;
		Path results = null;
		String commit = "";
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--workload" -> workloadName = args[++i];
				case "--rounds" -> rounds = Integer.parseInt(args[++i]);
				case "--switch" -> switched = args[++i];
				case "--header" -> header = args[++i];
				case "--pairs" -> pairs = Integer.parseInt(args[++i]);
				case "--connections" -> connections = Integer.parseInt(args[++i]);
				case "--window" -> window = Duration.ofMillis((long) (Double.parseDouble(args[++i]) * 1000));
				case "--settle" -> settle = Duration.ofMillis((long) (Double.parseDouble(args[++i]) * 1000));
				case "--warmup" -> warmup = Duration.ofSeconds(Long.parseLong(args[++i]));
				case "--jvm" -> jvm.add(args[++i]);
				case "--logs" -> logs = Path.of(args[++i]);
				case "--threads" -> threads = true;
				case "--twin" -> twin = true;
				case "--control" -> control = true;
				case "--cpus" -> cpus = args[++i];
				case "--alone" -> alone = args[++i];
				case "--rate" -> rate = Double.parseDouble(args[++i]);
				case "--results" -> results = Path.of(args[++i]);
				case "--commit" -> commit = args[++i];
				case "--setting" -> {
					String label = args[++i];
					Map<String, String> properties = new LinkedHashMap<>();
					if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
						for (String pair : args[++i].split(",(?=spanprofile\\.|management\\.)")) {
							int eq = pair.indexOf('=');
							properties.put(pair.substring(0, eq), pair.substring(eq + 1));
						}
					}
					settings.add(named(label, properties));
				}
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
			}
		}
		Workload workload = Workload.named(workloadName, rounds);
		if (!switched.equals("profiling") && (!List.of("propagation", "core-wait", "header").contains(switched) || !twin
				|| alone != null || (switched.equals("header") == header.isEmpty()))) {
			throw new IllegalArgumentException("--switch is profiling, or propagation, core-wait or header (with "
					+ "--header) with --twin and without --alone; was " + switched);
		}
		if (switched.equals("core-wait") && !List.of("pages", "work").contains(workloadName)) {
			throw new IllegalArgumentException(
					"--switch core-wait needs --workload pages or work, was " + workloadName);
		}
		if (rate != 0 && (!twin || rate < 0)) {
			throw new IllegalArgumentException("--rate needs --twin and a positive number of requests a second, was "
					+ rate + (twin ? "" : " without --twin"));
		}
		if (results != null && !twin) {
			throw new IllegalArgumentException("--results needs --twin: only side-by-side figures are published");
		}
		if (settings.isEmpty()) {
			settings.add(ProfilerSetting.defaults());
		}
		if (twin) {
			TwinSwitch twins = new TwinSwitch(workload, Math.max(1, connections / 2), warmup, window, settle, pairs,
					control, jvm, logs, cpus);
			if (alone != null) {
				twins.alone = AsyncProfilerAlone.extract(alone, logs.resolve("async-profiler-alone"));
			}
			if (switched.equals("propagation")) {
				twins.toggle = (copy, on) -> copy.app().setContextPropagation(on);
			}
			else if (switched.equals("core-wait")) {
				twins.toggle = (copy, on) -> copy.app().setCoreWait(on);
			}
			else if (switched.equals("header")) {
				twins.header = header;
				twins.toggle = (copy, on) -> copy.load().sendHeader(on);
			}
			twins.threadGroups = threads;
			twins.requestsPerSecondEach = rate;
			List<TwinResult> measured = new ArrayList<>();
			for (ProfilerSetting setting : settings) {
				measured.add(twins.run(setting));
			}
			if (results != null) {
				String load = (rate > 0) ? String.format(Locale.ROOT, "paced %.0f/s", rate) : ResultFigures.CLOSED_LOOP;
				List<Figure> figures = ResultFigures.ofTwins(measured, load, LocalDate.now(ZoneOffset.UTC), commit,
						Machine.current().description(), "SwitchProbe " + String.join(" ", args));
				Files.writeString(results, ResultsFile.write(figures));
			}
			return;
		}
		OverheadParameters parameters = new OverheadParameters(connections, workload, warmup, warmup.multipliedBy(3),
				window, 0, pairs, window, settle, List.of(), settings);
		OverheadBenchmark benchmark = new OverheadBenchmark(parameters, TwinParameters.none(), logs, jvm);
		benchmark.printThreadGroups = threads;
		OverheadResult result = new OverheadResult(parameters, List.of(), benchmark.runtimeSwitch(),
				TwinParameters.none(), List.of());
		for (ProfilerSetting setting : settings) {
			System.out.println("## " + setting.label() + " " + setting.properties());
			for (OverheadResult.Window w : result.switched().get(setting.label())) {
				System.out.println(String.format(Locale.ROOT,
						"  %-4s %2d req/s %6.0f p50 %6.2f p99 %6.2f cpu/req %6.0f noJIT %6.0f collector %5.1f",
						w.configuration().equals(OverheadBenchmark.OFF) ? "off" : "on", w.round(), w.throughput(),
						w.p50Millis(), w.p99Millis(), w.cpuMicrosPerRequest(), w.cpuMicrosPerRequestWithoutJit(),
						w.collectorMicrosPerRequest()));
			}
			for (OverheadResult.Metric metric : OverheadResult.Metric.values()) {
				System.out.println("  " + metric.title() + ": " + result.switchRatio(setting, metric));
			}
			System.out.println(
					String.format(Locale.ROOT, "  collector share: %.2f %%", 100 * result.collectorShare(setting)));
		}
	}

	private static ProfilerSetting named(String label, Map<String, String> properties) {
		if (properties.isEmpty() && label.equals("defaults")) {
			return ProfilerSetting.defaults();
		}
		if (properties.isEmpty() && label.equals("production")) {
			return ProfilerSetting.production();
		}
		return new ProfilerSetting(label, properties, false);
	}

}
