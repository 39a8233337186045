package dev.spanprofile;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU burners with distinct, recognisable method names. Each loops until the calling
 * thread has used the asked CPU time, so sample counts can be compared with CPU time
 * whatever else the machine runs.
 */
final class Workloads {

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	static volatile long sink;

	private Workloads() {
	}

	static long cpuNanos() {
		return threads.getCurrentThreadCpuTime();
	}

	static void burnAlpha(long cpuMillis) {
		long until = cpuNanos() + cpuMillis * 1_000_000;
		while (cpuNanos() < until) {
			sink += alphaHotMethod(200_000);
		}
	}

	static void burnBeta(long cpuMillis) {
		long until = cpuNanos() + cpuMillis * 1_000_000;
		while (cpuNanos() < until) {
			sink += betaHotMethod(200_000);
		}
	}

	static void burnGamma(long cpuMillis) {
		long until = cpuNanos() + cpuMillis * 1_000_000;
		while (cpuNanos() < until) {
			sink += gammaHotMethod(200_000);
		}
	}

	/**
	 * How many calls of {@code hotMethod} fill {@code cpuMillis} of CPU on this machine,
	 * measured on the calling (platform) thread, so that a virtual thread can then do a
	 * known amount of CPU work however busy the machine is.
	 */
	static long callsFor(long cpuMillis, java.util.function.IntToLongFunction hotMethod) {
		// Compiled first: counted while still interpreted, the calls came out too few (a
		// span then burned half the CPU asked for, on a fresh JVM in CI).
		long warm = cpuNanos() + 200_000_000L;
		while (cpuNanos() < warm) {
			sink += hotMethod.applyAsLong(200_000);
		}
		long calls = 0;
		long start = cpuNanos();
		long until = start + 200_000_000L;
		while (cpuNanos() < until) {
			sink += hotMethod.applyAsLong(200_000);
			calls++;
		}
		return Math.max(1, calls * cpuMillis * 1_000_000 / (cpuNanos() - start));
	}

	static void burnCalls(long calls, java.util.function.IntToLongFunction hotMethod) {
		for (long i = 0; i < calls; i++) {
			sink += hotMethod.applyAsLong(200_000);
		}
	}

	static long alphaHotMethod(int rounds) {
		long x = 17;
		for (int i = 0; i < rounds; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			x ^= (x >>> 29);
		}
		return x;
	}

	static long betaHotMethod(int rounds) {
		double acc = 1;
		for (int i = 1; i < rounds; i++) {
			acc += Math.sqrt(i) / (acc + i);
		}
		return (long) acc;
	}

	static long gammaHotMethod(int rounds) {
		long h = 0;
		for (int i = 0; i < rounds; i++) {
			h = 31 * h + Long.rotateLeft(i * 0x9E3779B97F4A7C15L, i & 63);
		}
		return h;
	}

}
