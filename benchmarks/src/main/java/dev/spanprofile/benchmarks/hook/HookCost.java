package dev.spanprofile.benchmarks.hook;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the hook benchmarks with the GC profiler and reads back time and allocation per
 * operation.
 * <p>
 * JMH runs all forks of one variant before the next, so on a shared machine a burst of
 * other work can land on one variant only. The run is therefore repeated in rounds of one
 * fork per variant, and each figure is the median over the rounds, with the lowest and
 * highest beside it.
 */
public final class HookCost {

	static final String CLOCK = "clock";

	private HookCost() {
	}

	/**
	 * @param rounds JMH runs, each one fork per variant
	 * @param iterations measurement iterations per fork (as many warm-up iterations come
	 * first)
	 * @param iterationTime length of one iteration
	 */
	public static HookCostResult run(int rounds, int iterations, Duration iterationTime, boolean verbose)
			throws RunnerException {
		Map<String, List<RunResult>> byVariant = new LinkedHashMap<>();
		for (int round = 0; round < rounds; round++) {
			for (RunResult result : runOnce(iterations, iterationTime, verbose)) {
				byVariant.computeIfAbsent(variant(result.getParams()), (key) -> new ArrayList<>()).add(result);
			}
		}
		if (byVariant.size() != 6 || byVariant.values().stream().anyMatch((results) -> results.size() != rounds)) {
			throw new IllegalStateException(
					"JMH did not report every hook benchmark in every round: " + byVariant.keySet());
		}
		return new HookCostResult(measurement(byVariant.get(CLOCK)), measurement(byVariant.get("none")),
				measurement(byVariant.get("stopped")), measurement(byVariant.get("recording")),
				measurement(byVariant.get("single-scope-stopped")),
				measurement(byVariant.get("single-scope-recording")), rounds, iterations, iterationTime);
	}

	private static Collection<RunResult> runOnce(int iterations, Duration iterationTime, boolean verbose)
			throws RunnerException {
		TimeValue time = TimeValue.milliseconds(iterationTime.toMillis());
		Options options = new OptionsBuilder().include(ActivationHookBenchmark.class.getName())
			.include(ClockReadBenchmark.class.getName())
			.forks(1)
			.warmupIterations(iterations)
			.warmupTime(time)
			.measurementIterations(iterations)
			.measurementTime(time)
			.threads(1)
			.addProfiler(GCProfiler.class)
			.verbosity(verbose ? VerboseMode.NORMAL : VerboseMode.SILENT)
			.build();
		return new Runner(options).run();
	}

	private static String variant(BenchmarkParams params) {
		return params.getBenchmark().startsWith(ClockReadBenchmark.class.getName()) ? CLOCK : params.getParam("hook");
	}

	private static Measurement measurement(List<RunResult> rounds) {
		double[] nanos = new double[rounds.size()];
		double[] bytes = new double[rounds.size()];
		for (int i = 0; i < rounds.size(); i++) {
			RunResult result = rounds.get(i);
			nanos[i] = result.getPrimaryResult().getScore();
			bytes[i] = Double.NaN;
			for (Map.Entry<String, Result> secondary : result.getSecondaryResults().entrySet()) {
				if (secondary.getKey().endsWith("gc.alloc.rate.norm")) {
					bytes[i] = secondary.getValue().getScore();
				}
			}
		}
		double[] sortedNanos = nanos.clone();
		Arrays.sort(sortedNanos);
		return new Measurement(median(nanos), sortedNanos[0], sortedNanos[sortedNanos.length - 1], median(bytes));
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		int n = sorted.length;
		return (n % 2 == 1) ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	}

	/**
	 * @param nanos median time per operation over the rounds
	 * @param lowest the fastest round
	 * @param highest the slowest round
	 * @param bytes median bytes allocated per operation
	 */
	public record Measurement(double nanos, double lowest, double highest, double bytes) {

	}

}
