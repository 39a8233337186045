package dev.spanprofile.benchmarks.hook;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
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
 * Runs the hook benchmarks in one JMH run with the GC profiler and reads back time and allocation per operation.
 */
public final class HookCost {

	private HookCost() {
	}

	/**
	 * @param forks JVMs per benchmark and parameter value
	 * @param iterations measurement iterations per fork (as many warm-up iterations come first)
	 * @param iterationTime length of one iteration
	 */
	public static HookCostResult run(int forks, int iterations, Duration iterationTime, boolean verbose)
			throws RunnerException {
		TimeValue time = TimeValue.milliseconds(iterationTime.toMillis());
		Options options = new OptionsBuilder().include(ActivationHookBenchmark.class.getName())
			.include(ClockReadBenchmark.class.getName())
			.forks(forks)
			.warmupIterations(iterations)
			.warmupTime(time)
			.measurementIterations(iterations)
			.measurementTime(time)
			.threads(1)
			.addProfiler(GCProfiler.class)
			.verbosity(verbose ? VerboseMode.NORMAL : VerboseMode.SILENT)
			.build();
		Collection<RunResult> results = new Runner(options).run();
		Measurement clock = null;
		Map<String, Measurement> activation = new LinkedHashMap<>();
		for (RunResult result : results) {
			BenchmarkParams params = result.getParams();
			Measurement measurement = measurement(result);
			if (params.getBenchmark().startsWith(ClockReadBenchmark.class.getName())) {
				clock = measurement;
			}
			else {
				activation.put(params.getParam("hook"), measurement);
			}
		}
		if (clock == null || activation.size() != 5) {
			throw new IllegalStateException("JMH did not report every hook benchmark: " + activation.keySet());
		}
		return new HookCostResult(clock, activation.get("none"), activation.get("stopped"), activation.get("recording"),
				activation.get("single-scope-stopped"), activation.get("single-scope-recording"), forks, iterations,
				iterationTime);
	}

	private static Measurement measurement(RunResult result) {
		Result<?> primary = result.getPrimaryResult();
		double bytes = Double.NaN;
		for (Map.Entry<String, Result> secondary : result.getSecondaryResults().entrySet()) {
			if (secondary.getKey().endsWith("gc.alloc.rate.norm")) {
				bytes = secondary.getValue().getScore();
			}
		}
		return new Measurement(primary.getScore(), primary.getScoreError(), bytes);
	}

	/**
	 * @param nanos average time per operation
	 * @param error JMH's 99.9 % confidence half-width (NaN with too few iterations)
	 * @param bytes allocated per operation
	 */
	public record Measurement(double nanos, double error, double bytes) {

	}

}
