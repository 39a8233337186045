package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the starter costs a real Spring MVC application under load, measured two ways on
 * the same machine:
 * <ul>
 * <li>separate runs of the application with the starter enabled and with
 * {@code spanprofile.enabled=false}, alternated in rotating order, which includes
 * everything the starter does but suffers from the 10–30 % differences between identical
 * runs that shared machines show;</li>
 * <li>one running application switched on and off through the endpoint in short
 * alternating windows (on, off, off, on, ...), which is steadier but leaves in place what
 * a switched-off engine keeps doing: the activation hook's check and one check per span
 * start; {@link SwitchProbe} uses it to split the CPU by thread group;</li>
 * <li>two copies of an application side by side, switched in opposite phase
 * ({@link TwinSwitch}), which cancels most of what the machine does to both; the goals
 * for a page-heavy application and for this one are judged on it.</li>
 * </ul>
 * All report throughput, p99 latency, and the application's CPU time per request from the
 * operating system, as ratios of on to off per round or pair.
 */
public final class OverheadBenchmark {

	static final String OFF = "off";

	private final OverheadParameters parameters;

	private final TwinParameters twinParameters;

	private final Path logDirectory;

	private final List<String> jvmOptions;

	private int appCount;

	/**
	 * Print each window's CPU per request by thread group (diagnostics,
	 * {@link SwitchProbe}).
	 */
	boolean printThreadGroups;

	public OverheadBenchmark(OverheadParameters parameters, TwinParameters twinParameters, Path logDirectory) {
		this(parameters, twinParameters, logDirectory, List.of());
	}

	/**
	 * @param jvmOptions extra options of the application's JVM, e.g. diagnostic logging
	 */
	public OverheadBenchmark(OverheadParameters parameters, TwinParameters twinParameters, Path logDirectory,
			List<String> jvmOptions) {
		this.parameters = parameters;
		this.twinParameters = twinParameters;
		this.logDirectory = logDirectory;
		this.jvmOptions = List.copyOf(jvmOptions);
	}

	public OverheadResult run() throws IOException, InterruptedException {
		return new OverheadResult(this.parameters, separateProcesses(), runtimeSwitch(), this.twinParameters,
				sideBySide());
	}

	/** Per case two copies of the application, switched in opposite phase. */
	List<TwinResult> sideBySide() throws IOException, InterruptedException {
		TwinParameters p = this.twinParameters;
		List<TwinResult> results = new ArrayList<>();
		for (TwinParameters.Case twinCase : p.cases()) {
			TwinSwitch twins = new TwinSwitch(twinCase.workload(), p.connectionsEach(), p.warmupOf(twinCase),
					p.window(), p.settle(), p.pairs(), false, this.jvmOptions,
					this.logDirectory.resolve("twin-" + twinCase.workload().label()), null);
			results.add(twins.run(twinCase.setting()));
		}
		return results;
	}

	/**
	 * Each round starts the application once per configuration, in an order rotated from
	 * round to round.
	 */
	List<OverheadResult.Window> separateProcesses() throws IOException, InterruptedException {
		List<ProfilerSetting> configurations = new ArrayList<>();
		configurations.add(null);
		configurations.addAll(this.parameters.processSettings());
		List<OverheadResult.Window> windows = new ArrayList<>();
		for (int round = 0; round < this.parameters.processRounds(); round++) {
			for (int i = 0; i < configurations.size(); i++) {
				ProfilerSetting setting = configurations.get((i + round) % configurations.size());
				Map<String, String> properties = (setting != null) ? setting.properties()
						: Map.of("spanprofile.enabled", "false");
				try (RunningApp running = start(properties)) {
					warmUp(running);
					windows.add(measure(running, (setting != null) ? setting.configuration() : OFF, round,
							this.parameters.window()));
				}
			}
		}
		return windows;
	}

	/**
	 * Per setting one application, switched on and off in pairs of windows whose order
	 * alternates.
	 */
	Map<String, List<OverheadResult.Window>> runtimeSwitch() throws IOException, InterruptedException {
		Map<String, List<OverheadResult.Window>> all = new LinkedHashMap<>();
		for (ProfilerSetting setting : this.parameters.switchSettings()) {
			List<OverheadResult.Window> windows = new ArrayList<>();
			try (RunningApp running = start(setting.properties())) {
				warmUp(running);
				for (int pair = 0; pair < this.parameters.switchPairs(); pair++) {
					boolean onFirst = pair % 2 == 0;
					for (boolean on : new boolean[] { onFirst, !onFirst }) {
						running.app().setProfiling(on);
						running.load().measure(this.parameters.switchSettle());
						windows.add(measure(running, on ? setting.configuration() : OFF, pair,
								this.parameters.switchWindow()));
					}
				}
			}
			all.put(setting.label(), windows);
		}
		return all;
	}

	/**
	 * Load for the minimum warm-up, then on while the JIT compiler threads still take
	 * more than 2 % of the application's CPU: on a busy machine compilation can go on for
	 * half a minute, and a window that includes it measures the JIT rather than the
	 * profiler.
	 */
	private void warmUp(RunningApp running) throws InterruptedException {
		long deadline = System.nanoTime() + this.parameters.maxWarmup().toNanos();
		running.load().measure(this.parameters.warmup());
		while (System.nanoTime() < deadline) {
			ProcessCpu.Usage before = running.app().cpuTime();
			running.load().measure(Duration.ofSeconds(2));
			ProcessCpu.Usage used = running.app().cpuTime().minus(before);
			if (!used.jitBusy()) {
				return;
			}
		}
	}

	private OverheadResult.Window measure(RunningApp running, String configuration, int round, Duration length)
			throws InterruptedException {
		ProcessCpu.Usage cpuBefore = running.app().cpuTime();
		Map<String, ProcessCpu.GroupUsage> groupsBefore = this.printThreadGroups ? running.app().cpuByThreadGroup()
				: Map.of();
		LoadDriver.Window window = running.load().measure(length);
		ProcessCpu.Usage cpu = running.app().cpuTime().minus(cpuBefore);
		if (this.printThreadGroups) {
			StringBuilder groups = new StringBuilder(
					"  threads, µs/request (times scheduled in/request), " + configuration + ":");
			ProcessCpu.GroupUsage none = new ProcessCpu.GroupUsage(0, 0);
			double requests = Math.max(1, window.requests());
			running.app().cpuByThreadGroup().forEach((group, usage) -> {
				ProcessCpu.GroupUsage before = groupsBefore.getOrDefault(group, none);
				double perRequest = (usage.runNanos() - before.runNanos()) / 1000.0 / requests;
				if (perRequest >= 1) {
					groups.append(String.format(java.util.Locale.ROOT, " [%s] %.0f (%.2f)", group, perRequest,
							(usage.timesScheduled() - before.timesScheduled()) / requests));
				}
			});
			System.out.println(groups);
			System.out.println(
					"  JIT log since the last window (switch, settle, window): " + running.app().compilationsLogged());
		}
		if (window.requests() == 0) {
			throw new IllegalStateException(
					"No request succeeded in a window (" + configuration + "):\n" + running.app().logTail());
		}
		return new OverheadResult.Window(configuration, round, window.requests(), window.errors(), window.throughput(),
				window.latencyMillis(0.5), window.latencyMillis(0.99),
				cpu.total().toNanos() / 1000.0 / window.requests(),
				cpu.total().minus(cpu.compiler()).toNanos() / 1000.0 / window.requests(),
				cpu.collector().toNanos() / 1000.0 / window.requests());
	}

	private RunningApp start(Map<String, String> properties) throws IOException, InterruptedException {
		Path log = this.logDirectory.resolve(this.parameters.workload().label() + "-app-" + (++this.appCount) + ".log");
		Workload workload = this.parameters.workload();
		AppProcess app = AppProcess.start(workload.mainClass(), properties, this.jvmOptions, log);
		LoadDriver load = new LoadDriver(app.port(), workload.path(), this.parameters.connections());
		return new RunningApp(app, load);
	}

}
