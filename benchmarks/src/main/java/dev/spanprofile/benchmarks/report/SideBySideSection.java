package dev.spanprofile.benchmarks.report;

import java.util.List;
import java.util.Locale;

import dev.spanprofile.benchmarks.overhead.ProfilerSetting;
import dev.spanprofile.benchmarks.overhead.TwinParameters;
import dev.spanprofile.benchmarks.overhead.TwinResult;
import dev.spanprofile.benchmarks.overhead.TwinResult.Measure;
import dev.spanprofile.benchmarks.overhead.TwinResult.Spread;
import dev.spanprofile.benchmarks.overhead.Workload;

/**
 * The part of the report that judges the cost goals: two copies of an application
 * switched in opposite phase, per application and setting. Its goal rows go in the
 * report's goals table, its method and figures under the end-to-end overhead.
 */
final class SideBySideSection {

	/**
	 * The side-by-side goals besides CPU ({@link ProfilerSetting#cpuLimit()}): what a
	 * team accepts in production.
	 */
	private static final double THROUGHPUT_LIMIT = 0.98;

	private static final double P99_LIMIT = 1.03;

	private final MarkdownLines out;

	SideBySideSection(MarkdownLines out) {
		this.out = out;
	}

	/**
	 * The goals for an application's CPU per request, throughput and p99 latency, judged
	 * on the medians of the pairs.
	 */
	void goals(TwinResult twin) {
		String of = applicationName(twin.workload()) + ", " + twin.setting().label() + ": ";
		Spread cpu = twin.spread(Measure.CPU_PER_REQUEST);
		Spread throughput = twin.spread(Measure.THROUGHPUT);
		Spread p99 = twin.spread(Measure.P99);
		double cpuLimit = twin.setting().cpuLimit();
		this.out.goal(of + "CPU per request on/off ≤ " + cpuLimit, cpu + " (" + cpu.count() + " pairs)",
				cpu.median() <= cpuLimit);
		this.out.line("| " + of + "CPU per request without the JIT compiler threads on/off | "
				+ twin.spread(Measure.CPU_WITHOUT_JIT) + " | reported |");
		this.out.goal(of + "throughput on/off ≥ " + THROUGHPUT_LIMIT, throughput.toString(),
				throughput.median() >= THROUGHPUT_LIMIT);
		this.out.goal(of + "p99 latency on/off ≤ " + P99_LIMIT, p99.toString(), p99.median() <= P99_LIMIT);
	}

	/** How the copies were run and every application and setting's ratios. */
	void figures(TwinParameters p, List<TwinResult> twins) {
		if (twins.isEmpty()) {
			return;
		}
		this.out.line("### Two copies side by side");
		this.out.line();
		this.out.line("The goals (CPU per request on/off ≤ " + ProfilerSetting.defaults().cpuLimit()
				+ " with the defaults, waits included, ≤ " + ProfilerSetting.production().cpuLimit()
				+ " with the recommended production setting; throughput ≥ " + THROUGHPUT_LIMIT + ", p99 ≤ " + P99_LIMIT
				+ ") are judged here, on two applications: the one above "
				+ "and `PageApplication`, a page-heavy one (the owners search page `" + Workload.pages().path()
				+ "`: Thymeleaf, JPA on an in-memory database, stacks 100–200 frames deep). Per application and "
				+ "setting two copies run side by side, each under its own closed-loop load, and are switched with "
				+ "`POST /actuator/spanprofile` in opposite phase: while one profiles the other does not, and in the "
				+ "next window they swap (`TwinSwitch`). Both are measured over the same windows, so what the shared "
				+ "machine does to the CPU moves both alike; a pair's ratio is the geometric mean of its two windows' "
				+ "on/off ratios. Before the first pair each copy is switched " + TwinParameters.SWITCH_WARMUPS
				+ " times, which takes the recompilation after the first switches out of the windows. Every request "
				+ "is traced unless a setting says otherwise.");
		this.out.line();
		this.out.line(String.format(Locale.ROOT, "Each copy: %d keep-alive connections, after at least %s of warm-up "
				+ "with profiling on (longer while its JIT compiler threads are busy); %d pairs of %d s windows, each "
				+ "after %d s of load following the switch.", p.connectionsEach(), warmups(p), p.pairs(),
				p.window().toSeconds(), p.settle().toSeconds()));
		this.out.line();
		this.out.line("Ratios on / off: median [lower quartile..upper quartile] {lowest..highest}. \"Without JIT\" "
				+ "leaves out the JIT compiler threads, whose bursts after a switch a running application pays once; "
				+ "\"request threads\" is the CPU per request of Tomcat's request threads alone.");
		this.out.line();
		this.out.line(
				"| application, setting | CPU per request | without JIT | request threads | throughput | p99 latency |");
		this.out.line("|---|---|---|---|---|---|");
		for (TwinResult twin : twins) {
			StringBuilder row = new StringBuilder(
					"| " + applicationName(twin.workload()) + ", " + twin.setting().label() + " |");
			for (Measure measure : Measure.values()) {
				row.append(' ').append(twin.spread(measure)).append(" |");
			}
			this.out.line(row.toString());
		}
		this.out.line();
	}

	/** "60 s", or "60 s (240 s for the page application)" when a case warms up longer. */
	private static String warmups(TwinParameters p) {
		List<String> longer = p.cases()
			.stream()
			.filter((c) -> p.warmupOf(c).compareTo(p.warmup()) > 0)
			.map((c) -> p.warmupOf(c).toSeconds() + " s for the " + lowerFirst(applicationName(c.workload())))
			.distinct()
			.toList();
		return p.warmup().toSeconds() + " s" + (longer.isEmpty() ? "" : " (" + String.join(", ", longer) + ")");
	}

	private static String lowerFirst(String text) {
		return Character.toLowerCase(text.charAt(0)) + text.substring(1);
	}

	private static String applicationName(Workload workload) {
		return workload.equals(Workload.pages()) ? "Page application" : "`work` application";
	}

}
