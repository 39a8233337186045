package dev.spanprofile.benchmarks.overhead;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import one.profiler.AsyncProfiler;

/**
 * What one async-profiler sample costs where nothing else differs: one thread doing CPU
 * work at the bottom of a stack of a given depth, async-profiler started and stopped
 * between windows in the same JVM, the thread's own CPU time per unit of work compared.
 * No spanprofile code runs; this is the floor under what the sampler can cost an
 * application.
 * <p>
 * Arguments: stack depth, async-profiler start options without {@code start} and
 * {@code file} (e.g. {@code jfr,event=cpu,interval=10ms}), number of on/off pairs.
 */
public final class SampleCostProbe {

	private static final int LEAF_ROUNDS = 20_000;

	private static volatile long sink;

	private SampleCostProbe() {
	}

	public static void main(String[] args) throws Exception {
		int depth = Integer.parseInt(args[0]);
		String options = args[1];
		int pairs = Integer.parseInt(args[2]);
		AsyncProfiler profiler = AsyncProfiler.getInstance();
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		String file = java.nio.file.Files.createTempFile("sample-cost", ".jfr").toString();
		work(depth, 10_000);
		boolean running = false;
		List<Double> ratios = new ArrayList<>();
		double onNanos = 0;
		double offNanos = 0;
		for (int pair = 0; pair < pairs; pair++) {
			double[] perOperation = new double[2];
			for (int half = 0; half < 2; half++) {
				// Which state comes first alternates, so that a drift of the machine does
				// not favour either.
				boolean on = (half == 0) == (pair % 2 == 0);
				if (on != running) {
					profiler.execute(on ? "start," + options + ",file=" + file : "stop");
					running = on;
				}
				// Let the JIT settle after a start or stop before the window.
				work(depth, 500);
				long cpuBefore = threads.getCurrentThreadCpuTime();
				long operations = work(depth, 1_500);
				perOperation[on ? 1 : 0] = (threads.getCurrentThreadCpuTime() - cpuBefore) / (double) operations;
			}
			ratios.add(perOperation[1] / perOperation[0]);
			offNanos += perOperation[0];
			onNanos += perOperation[1];
		}
		if (running) {
			profiler.execute("stop");
		}
		Collections.sort(ratios);
		System.out.println(String.format(Locale.ROOT,
				"depth %d, %s: CPU per operation on/off %.4f [%.4f..%.4f], %.2f µs per operation off, %+.3f µs on",
				depth, options, TwinResult.quantile(ratios, 0.5), TwinResult.quantile(ratios, 0.25),
				TwinResult.quantile(ratios, 0.75), offNanos / pairs / 1000, (onNanos - offNanos) / pairs / 1000));
	}

	/** Operations done in {@code millis} of elapsed time. */
	private static long work(int depth, long millis) {
		long operations = 0;
		long end = System.nanoTime() + millis * 1_000_000;
		while (System.nanoTime() < end) {
			sink += down(depth);
			operations++;
		}
		return operations;
	}

	private static long down(int depth) {
		return (depth == 0) ? leaf() : downAgain(depth - 1) + 1;
	}

	private static long downAgain(int depth) {
		return (depth == 0) ? leaf() : down(depth - 1) + 2;
	}

	private static long leaf() {
		long x = sink;
		for (int i = 0; i < LEAF_ROUNDS; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
		}
		return x;
	}

}
