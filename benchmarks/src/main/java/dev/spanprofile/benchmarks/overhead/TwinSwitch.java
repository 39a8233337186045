package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two copies of the application under load side by side, switched in opposite phase:
 * while one profiles, the other does not, and in the next window they swap. Both copies
 * see the machine at the same moments, so what other tenants do to the CPU (the other
 * hyperthread of a shared core, memory bandwidth) moves both copies' figures alike and
 * cancels in their ratio; the swap cancels what differs between the two JVMs (what their
 * JIT compilers chose). One switch pair gives one ratio: the geometric mean of its two
 * windows' on/off ratios.
 * <p>
 * With a control, each measured pair is followed by one in which both copies stay off;
 * the same ratio then shows the spread the method has when nothing differs. Used by
 * {@link SwitchProbe} {@code --twin}.
 */
final class TwinSwitch {

	private final Workload workload;

	private final int connectionsEach;

	private final Duration warmup;

	private final Duration window;

	private final Duration settle;

	private final int pairs;

	private final boolean control;

	private final List<String> jvmOptions;

	private final Path logs;

	private final List<String> launcher;

	/**
	 * @param cpus CPUs both copies are kept on ({@code taskset -c}), or {@code null} for
	 * wherever they run
	 */
	TwinSwitch(Workload workload, int connectionsEach, Duration warmup, Duration window, Duration settle, int pairs,
			boolean control, List<String> jvmOptions, Path logs, String cpus) {
		this.workload = workload;
		this.connectionsEach = connectionsEach;
		this.warmup = warmup;
		this.window = window;
		this.settle = settle;
		this.pairs = pairs;
		this.control = control;
		this.jvmOptions = jvmOptions;
		this.logs = logs;
		this.launcher = (cpus != null) ? List.of("taskset", "-c", cpus) : List.of();
	}

	/**
	 * Requests a second sent to each copy on a fixed schedule; 0 (the default) for
	 * closed-loop load, which throughput needs.
	 */
	double requestsPerSecondEach;

	/**
	 * When set, the copies run without spanprofile and this is what is switched (the peer
	 * alone).
	 */
	AsyncProfilerAlone alone;

	/**
	 * When set, each pair also gives every thread group's CPU per request, on minus off,
	 * and the median over the pairs is printed: which threads the setting's cost lands
	 * on.
	 */
	boolean threadGroups;

	/**
	 * What the copies switch in opposite phase: profiling unless set otherwise (e.g.
	 * their context propagation, profiling then staying on in both).
	 */
	Toggle toggle = (copy, on) -> copy.app().setProfiling(on);

	/**
	 * A header ({@code Name: value}) the load's requests carry while the toggle says so
	 * (e.g. {@code (copy, on) -> copy.load().sendHeader(on)}); empty for none.
	 */
	String header = "";

	/** Switches one thing on or off in a running copy or in its load. */
	@FunctionalInterface
	interface Toggle {

		void set(RunningApp copy, boolean on) throws IOException, InterruptedException;

	}

	private final ThreadGroupCosts groupCosts = new ThreadGroupCosts();

	/** Measure one setting; prints every window and the ratios. */
	TwinResult run(ProfilerSetting setting) throws IOException, InterruptedException {
		System.out.println("## twin " + setting.label() + " " + setting.properties());
		RunningApp a = null;
		RunningApp b = null;
		try {
			a = start(setting, "a");
			b = start(setting, "b");
			warmUp(a, b);
			List<double[]> measured = new ArrayList<>();
			List<double[]> unchanged = new ArrayList<>();
			for (int pair = 0; pair < this.pairs; pair++) {
				// Which copy profiles first alternates, so that neither copy always
				// follows its own switch on.
				boolean aFirst = pair % 2 == 0;
				Figures[] first = phase(a, b, aFirst, !aFirst, pair, true);
				Figures[] second = phase(a, b, !aFirst, aFirst, pair, false);
				measured.add(pairRatios(first, second, aFirst));
				if (this.control) {
					Figures[] controlFirst = phase(a, b, false, false, pair, true);
					Figures[] controlSecond = phase(a, b, false, false, pair, false);
					unchanged.add(pairRatios(controlFirst, controlSecond, aFirst));
				}
			}
			TwinResult result = new TwinResult(this.workload, setting, measured);
			report("on / off", result);
			if (this.threadGroups) {
				this.groupCosts.report();
			}
			if (this.control) {
				report("control, both off", new TwinResult(this.workload, setting, unchanged));
			}
			return result;
		}
		finally {
			if (b != null) {
				b.close();
			}
			if (a != null) {
				a.close();
			}
		}
	}

	private RunningApp start(ProfilerSetting setting, String name) throws IOException, InterruptedException {
		Map<String, String> properties = new LinkedHashMap<>(setting.properties());
		if (this.alone != null) {
			properties.put("spanprofile.enabled", "false");
		}
		AppProcess app = AppProcess.start(this.launcher, this.workload.mainClass(), properties, this.jvmOptions,
				this.logs.resolve(setting.label() + "-" + name + ".log"));
		if (this.alone != null) {
			app.switchWith(this.alone);
		}
		return new RunningApp(app, new LoadDriver(app.port(), this.workload.path(), this.connectionsEach,
				this.requestsPerSecondEach, this.header));
	}

	private void warmUp(RunningApp a, RunningApp b) throws InterruptedException, IOException {
		warmUpTogether(a, b, this.warmup);
		for (int i = 0; i < TwinParameters.SWITCH_WARMUPS; i++) {
			this.toggle.set(a, i % 2 == 0);
			this.toggle.set(b, i % 2 != 0);
			LoadDriver.measureTogether(this.settle, a.load(), b.load());
		}
	}

	/**
	 * Both copies under their load for {@code warmup}, then for up to twice as long until
	 * neither copy's JIT compiler threads are busy.
	 */
	static void warmUpTogether(RunningApp a, RunningApp b, Duration warmup) throws InterruptedException {
		LoadDriver.measureTogether(warmup, a.load(), b.load());
		long deadline = System.nanoTime() + warmup.multipliedBy(2).toNanos();
		while (System.nanoTime() < deadline) {
			ProcessCpu.Usage aBefore = a.app().cpuTime();
			ProcessCpu.Usage bBefore = b.app().cpuTime();
			LoadDriver.measureTogether(Duration.ofSeconds(2), a.load(), b.load());
			if (!a.app().cpuTime().minus(aBefore).jitBusy() && !b.app().cpuTime().minus(bBefore).jitBusy()) {
				break;
			}
		}
	}

	/**
	 * Switch both copies, let the load run for the settle time, then measure both over
	 * one window.
	 */
	private Figures[] phase(RunningApp a, RunningApp b, boolean aOn, boolean bOn, int pair, boolean firstOfPair)
			throws IOException, InterruptedException {
		this.toggle.set(a, aOn);
		this.toggle.set(b, bOn);
		LoadDriver.measureTogether(this.settle, a.load(), b.load());
		Snapshot aBefore = snapshot(a.app());
		Snapshot bBefore = snapshot(b.app());
		Map<String, ProcessCpu.GroupUsage> aGroups = this.threadGroups ? a.app().cpuByThreadGroup() : Map.of();
		Map<String, ProcessCpu.GroupUsage> bGroups = this.threadGroups ? b.app().cpuByThreadGroup() : Map.of();
		List<LoadDriver.Window> windows = LoadDriver.measureTogether(this.window, a.load(), b.load());
		Figures aFigures = Figures.of(windows.get(0), aBefore, snapshot(a.app()));
		Figures bFigures = Figures.of(windows.get(1), bBefore, snapshot(b.app()));
		if (this.threadGroups && aOn != bOn) {
			Map<String, Double> aPerRequest = ThreadGroupCosts.perRequest(aGroups, a.app().cpuByThreadGroup(),
					windows.get(0));
			Map<String, Double> bPerRequest = ThreadGroupCosts.perRequest(bGroups, b.app().cpuByThreadGroup(),
					windows.get(1));
			this.groupCosts.add(aOn ? aPerRequest : bPerRequest, aOn ? bPerRequest : aPerRequest, firstOfPair);
		}
		System.out.println(String.format(Locale.ROOT, "  pair %2d  a %-3s %s   b %-3s %s", pair, aOn ? "on" : "off",
				aFigures, bOn ? "on" : "off", bFigures));
		return new Figures[] { aFigures, bFigures };
	}

	/**
	 * One pair's ratios, one per measure: in the first window copy a (if {@code aFirst})
	 * is the "on" one, in the second copy b. For a control pair (both off) the same
	 * arithmetic compares a to b in one window against b to a in the next.
	 */
	static double[] pairRatios(Figures[] first, Figures[] second, boolean aFirst) {
		Figures firstOn = first[aFirst ? 0 : 1];
		Figures firstOff = first[aFirst ? 1 : 0];
		Figures secondOn = second[aFirst ? 1 : 0];
		Figures secondOff = second[aFirst ? 0 : 1];
		double[] ratios = new double[TwinResult.Measure.values().length];
		for (int m = 0; m < ratios.length; m++) {
			ratios[m] = Math.sqrt(firstOn.value(m) / firstOff.value(m) * (secondOn.value(m) / secondOff.value(m)));
		}
		return ratios;
	}

	private static void report(String title, TwinResult result) {
		System.out.println("  " + title + ", " + result.pairs().size() + " pairs: median [lower quartile..upper "
				+ "quartile] {lowest..highest}");
		for (TwinResult.Measure measure : TwinResult.Measure.values()) {
			System.out.println(String.format(Locale.ROOT, "    %-34s %s", measure.title(), result.spread(measure)));
		}
	}

	/**
	 * CPU per request of the whole process, of the process without its JIT compiler
	 * threads (whose bursts after a switch a running application pays once, not per
	 * request), and of its request threads alone; the requests' throughput and p99.
	 */
	record Figures(double cpuPerRequest, double withoutJitPerRequest, double requestThreadsPerRequest,
			double throughput, double p99Millis) {

		static Figures of(LoadDriver.Window window, Snapshot before, Snapshot after) {
			double requests = Math.max(1, window.requests());
			ProcessCpu.Usage used = after.cpu.minus(before.cpu);
			double cpuNanos = used.total().toNanos();
			return new Figures(cpuNanos / 1000.0 / requests, (cpuNanos - used.compiler().toNanos()) / 1000.0 / requests,
					used.requestThreads().toNanos() / 1000.0 / requests, window.throughput(),
					window.latencyMillis(0.99));
		}

		/**
		 * The figure of measure {@code measure}, in the order of
		 * {@link TwinResult.Measure}.
		 */
		double value(int measure) {
			return switch (TwinResult.Measure.values()[measure]) {
				case CPU_PER_REQUEST -> this.cpuPerRequest;
				case CPU_WITHOUT_JIT -> this.withoutJitPerRequest;
				case REQUEST_THREADS -> this.requestThreadsPerRequest;
				case THROUGHPUT -> this.throughput;
				case P99 -> this.p99Millis;
			};
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT,
					"cpu/req %5.0f µs, without JIT %5.0f µs, request threads %5.0f µs, %5.0f req/s, p99 %5.2f ms",
					this.cpuPerRequest, this.withoutJitPerRequest, this.requestThreadsPerRequest, this.throughput,
					this.p99Millis);
		}

	}

	record Snapshot(ProcessCpu.Usage cpu) {
	}

	/**
	 * CPU time so far of the whole copy, thread by thread (its compiler and request
	 * threads among them).
	 */
	static Snapshot snapshot(AppProcess app) {
		return new Snapshot(app.cpuTime());
	}

}
