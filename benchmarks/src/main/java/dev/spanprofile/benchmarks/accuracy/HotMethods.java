package dev.spanprofile.benchmarks.accuracy;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Eight CPU burners with names a stack can be recognised by. Each span of the accuracy
 * benchmark burns in one of them, so any sample in another one's method is a sample given
 * to the wrong span.
 */
final class HotMethods {

	static final int COUNT = 8;

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	static volatile long sink;

	private HotMethods() {
	}

	static long cpuNanos() {
		return threads.getCurrentThreadCpuTime();
	}

	/**
	 * Keep the calling thread busy in hot method {@code index} until it used
	 * {@code cpuNanos} of CPU.
	 */
	static void burn(int index, long cpuNanos) {
		long until = cpuNanos() + cpuNanos;
		while (cpuNanos() < until) {
			sink += switch (index) {
				case 0 -> hot0(100_000);
				case 1 -> hot1(100_000);
				case 2 -> hot2(100_000);
				case 3 -> hot3(100_000);
				case 4 -> hot4(100_000);
				case 5 -> hot5(100_000);
				case 6 -> hot6(100_000);
				case 7 -> hot7(100_000);
				default -> throw new IllegalArgumentException("No hot method " + index);
			};
		}
	}

	/** Which hot method a frame name is, or -1. */
	static int indexOf(String frameName) {
		int at = frameName.lastIndexOf("HotMethods.hot");
		if (at < 0 || at + 15 != frameName.length()) {
			return -1;
		}
		int index = frameName.charAt(at + 14) - '0';
		return (index >= 0 && index < COUNT) ? index : -1;
	}

	static long hot0(int rounds) {
		long x = 17;
		for (int i = 0; i < rounds; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			x ^= (x >>> 29);
		}
		return x;
	}

	static long hot1(int rounds) {
		double acc = 1;
		for (int i = 1; i < rounds; i++) {
			acc += Math.sqrt(i) / (acc + i);
		}
		return (long) acc;
	}

	static long hot2(int rounds) {
		long h = 0;
		for (int i = 0; i < rounds; i++) {
			h = 31 * h + Long.rotateLeft(i * 0x9E3779B97F4A7C15L, i & 63);
		}
		return h;
	}

	static long hot3(int rounds) {
		long a = 1;
		long b = 2;
		for (int i = 0; i < rounds; i++) {
			long t = a + b;
			a = b;
			b = t ^ (t << 13);
		}
		return b;
	}

	static long hot4(int rounds) {
		int bits = 0;
		for (int i = 0; i < rounds; i++) {
			bits += Integer.bitCount(i * 0x45d9f3b);
		}
		return bits;
	}

	static long hot5(int rounds) {
		double x = 0.5;
		for (int i = 0; i < rounds; i++) {
			x = 3.9 * x * (1 - x);
		}
		return Double.doubleToLongBits(x);
	}

	static long hot6(int rounds) {
		long crc = -1;
		for (int i = 0; i < rounds; i++) {
			crc = (crc >>> 1) ^ (0xEDB88320L & -(crc & 1 ^ (i & 1)));
		}
		return crc;
	}

	static long hot7(int rounds) {
		long m = 1;
		for (int i = 1; i < rounds; i++) {
			m = (m * (i | 1)) % 1_000_000_007L;
		}
		return m;
	}

}
