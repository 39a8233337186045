/*
 * What a Java-side sampler of chosen threads costs: Thread.getStackTrace (a handshake with the target on JDK 17) and
 * ThreadMXBean.getThreadInfo(id, depth), called on a thread that burns CPU at the bottom of a deep stack, as a
 * request thread of the page application does (about 150 frames). Two such threads run side by side, only one of
 * them sampled, in windows that alternate which one (the twin method of docs/performance.md, in one JVM): what the
 * machine's other tenants do moves both alike. Prints, per window pair, the sampled thread's CPU per unit of work
 * over the unsampled one's, and the sampler thread's own CPU per sample; then their quartiles.
 *
 *   java benchmarks/probes/ThreadStackSampleCost.java [DEPTH] [INTERVAL_MICROS] [PAIRS] [WINDOW_MILLIS] [MODE]
 *
 * MODE: stack (Thread.getStackTrace, the default) or info (ThreadMXBean.getThreadInfo). benchmarks/DECISIONS.md
 * (more samples for slow requests) says what it showed.
 */

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

public class ThreadStackSampleCost {

	static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	static volatile boolean stop;

	static volatile long sink;

	static final class Burner extends Thread {

		final int depth;

		final AtomicLong work = new AtomicLong();

		volatile long cpuNanos;

		Burner(String name, int depth) {
			super(name);
			this.depth = depth;
			setDaemon(true);
		}

		@Override
		public void run() {
			descend(this.depth);
		}

		private void descend(int left) {
			if (left > 0) {
				descend(left - 1);
				return;
			}
			while (!stop) {
				long x = 13;
				for (int i = 0; i < 20_000; i++) {
					x = x * 3202034522624059733L + 4354685564936845319L;
					x ^= (x >>> 27);
				}
				sink += x;
				this.work.incrementAndGet();
				this.cpuNanos = THREADS.getCurrentThreadCpuTime();
			}
		}

	}

	public static void main(String[] args) throws Exception {
		int depth = (args.length > 0) ? Integer.parseInt(args[0]) : 150;
		long intervalNanos = ((args.length > 1) ? Long.parseLong(args[1]) : 1000) * 1000;
		int pairs = (args.length > 2) ? Integer.parseInt(args[2]) : 10;
		long windowMillis = (args.length > 3) ? Long.parseLong(args[3]) : 2000;
		boolean info = (args.length > 4) && args[4].equals("info");
		Burner a = new Burner("burner-a", depth);
		Burner b = new Burner("burner-b", depth);
		a.start();
		b.start();
		// Warm-up: both compiled, the sampler's path too.
		sample(a, info, 2000, intervalNanos);
		List<Double> ratios = new ArrayList<>();
		List<Double> samplerMicros = new ArrayList<>();
		List<Double> frames = new ArrayList<>();
		for (int pair = 0; pair < pairs; pair++) {
			double ratio = 1;
			for (Burner sampled : new Burner[] { a, b }) {
				Burner other = (sampled == a) ? b : a;
				long sampledWork = sampled.work.get();
				long otherWork = other.work.get();
				long sampledCpu = sampled.cpuNanos;
				long otherCpu = other.cpuNanos;
				long samplerCpu = THREADS.getCurrentThreadCpuTime();
				long deadline = System.nanoTime() + windowMillis * 1_000_000;
				long samples = 0;
				long frameCount = 0;
				while (System.nanoTime() < deadline) {
					frameCount += sampleOnce(sampled, info);
					samples++;
					LockSupport.parkNanos(intervalNanos);
				}
				samplerCpu = THREADS.getCurrentThreadCpuTime() - samplerCpu;
				double sampledCpuPerWork = (sampled.cpuNanos - sampledCpu) / (double) (sampled.work.get() - sampledWork);
				double otherCpuPerWork = (other.cpuNanos - otherCpu) / (double) (other.work.get() - otherWork);
				ratio *= sampledCpuPerWork / otherCpuPerWork;
				samplerMicros.add(samplerCpu / 1000.0 / samples);
				frames.add(frameCount / (double) samples);
				System.out.printf(Locale.ROOT, "pair %d %s: %d samples, %.1f frames, sampler %.1f µs/sample, "
						+ "CPU per work sampled/unsampled %.4f%n", pair, sampled.getName(), samples,
						frameCount / (double) samples, samplerCpu / 1000.0 / samples, sampledCpuPerWork / otherCpuPerWork);
			}
			ratios.add(Math.sqrt(ratio));
		}
		stop = true;
		System.out.printf(Locale.ROOT, "%s depth %d every %d µs: target CPU ratio %s, sampler µs/sample %s%n",
				info ? "getThreadInfo" : "getStackTrace", depth, intervalNanos / 1000, quartiles(ratios),
				quartiles(samplerMicros));
	}

	private static void sample(Burner target, boolean info, int times, long intervalNanos) {
		for (int i = 0; i < times; i++) {
			sampleOnce(target, info);
			LockSupport.parkNanos(intervalNanos);
		}
	}

	private static int sampleOnce(Burner target, boolean info) {
		if (info) {
			return THREADS.getThreadInfo(target.getId(), Integer.MAX_VALUE).getStackTrace().length;
		}
		return target.getStackTrace().length;
	}

	private static String quartiles(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		return String.format(Locale.ROOT, "%.3f [%.3f..%.3f]", at(sorted, 0.5), at(sorted, 0.25), at(sorted, 0.75));
	}

	private static double at(List<Double> sorted, double q) {
		double index = q * (sorted.size() - 1);
		int low = (int) Math.floor(index);
		int high = (int) Math.ceil(index);
		return sorted.get(low) + (sorted.get(high) - sorted.get(low)) * (index - low);
	}

}
