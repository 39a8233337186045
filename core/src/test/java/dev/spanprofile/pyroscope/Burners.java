package dev.spanprofile.pyroscope;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU burners whose method names tell in a stack which part of a test's work a sample
 * comes from.
 */
final class Burners {

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	static volatile long sink;

	private Burners() {
	}

	static void headHot(long cpuMillis) {
		long until = until(cpuMillis);
		while (threads.getCurrentThreadCpuTime() < until) {
			sink += mix(sink, 100_000);
		}
	}

	static void childHot(long cpuMillis) {
		long until = until(cpuMillis);
		while (threads.getCurrentThreadCpuTime() < until) {
			sink += mix(sink, 100_000);
		}
	}

	static void tailHot(long cpuMillis) {
		long until = until(cpuMillis);
		while (threads.getCurrentThreadCpuTime() < until) {
			sink += mix(sink, 100_000);
		}
	}

	static void pooledHot(long cpuMillis) {
		long until = until(cpuMillis);
		while (threads.getCurrentThreadCpuTime() < until) {
			sink += mix(sink, 100_000);
		}
	}

	static void unrelatedHot(long cpuMillis) {
		long until = until(cpuMillis);
		while (threads.getCurrentThreadCpuTime() < until) {
			sink += mix(sink, 100_000);
		}
	}

	static void afterScopeHot(long cpuMillis) {
		long until = until(cpuMillis);
		while (threads.getCurrentThreadCpuTime() < until) {
			sink += mix(sink, 100_000);
		}
	}

	private static long until(long cpuMillis) {
		return threads.getCurrentThreadCpuTime() + cpuMillis * 1_000_000;
	}

	private static long mix(long seed, int rounds) {
		long x = seed | 1;
		for (int i = 0; i < rounds; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			x ^= (x >>> 29);
		}
		return x;
	}

}
