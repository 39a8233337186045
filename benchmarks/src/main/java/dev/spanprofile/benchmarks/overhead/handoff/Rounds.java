package dev.spanprofile.benchmarks.overhead.handoff;

/**
 * A fixed amount of work counted in loop rounds, not CPU time, so that anything added
 * around it shows up as more CPU per request.
 */
public final class Rounds {

	private Rounds() {
	}

	/** {@code rounds} kept between 0 and 10 million. */
	public static int bounded(int rounds) {
		return Math.min(Math.max(rounds, 0), 10_000_000);
	}

	public static long compute(int rounds) {
		long x = 17;
		for (int i = 0; i < rounds; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			x ^= (x >>> 29);
		}
		return x;
	}

}
