package dev.spanprofile.sample;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Keeps a thread busy for a given CPU time, calling back into the caller's named hot
 * method.
 */
final class CpuWork {

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	static volatile long sink;

	private CpuWork() {
	}

	static void burn(long cpuMillis, java.util.function.LongUnaryOperator hotMethod) {
		long until = threads.getCurrentThreadCpuTime() + cpuMillis * 1_000_000;
		long seed = System.nanoTime();
		while (threads.getCurrentThreadCpuTime() < until) {
			seed = hotMethod.applyAsLong(seed);
			sink += seed;
		}
	}

}
