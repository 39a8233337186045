package dev.spanprofile.test;

/**
 * The range a sampled quantity lies in with 99.9 % confidence, from the sample counts an
 * assertion rests on. An assertion passes or fails only when the whole range is on one
 * side of its bound; otherwise it refuses to decide. A sampling interval, not a run's
 * noise: a bound that the request's true value sits right at fails or passes wrongly in
 * at most 1 of 2,000 runs, and one it sits near makes the assertion refuse until there
 * are more samples.
 * <p>
 * CPU samples are taken at fixed intervals of a thread's CPU time, which varies less than
 * independent draws would; the binomial range is therefore on the wide (safe) side for
 * the request's own share. It does not cover how much the request itself varies from run
 * to run (JIT compilation, caches); {@link SpanProfileAssertions#repeat} averages that
 * over repetitions.
 *
 * @param low lower end
 * @param high upper end
 */
record Confidence(double low, double high) {

	/** Two-sided 99.9 %: the normal quantile 1 - 0.0005. */
	static final double Z = 3.2905;

	static final String LEVEL = "99.9 %";

	/**
	 * Wilson's score interval for the share {@code hits / total}: well-behaved at 0, 1
	 * and small counts.
	 */
	static Confidence ofShare(long hits, long total) {
		if (total <= 0) {
			return new Confidence(0, 1);
		}
		double n = total;
		double p = hits / n;
		double z2 = Z * Z;
		double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
		double half = (Z / (1 + z2 / n)) * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n));
		// Exact at the ends, where rounding would leave a share of none (or all) a hair
		// away from 0 (or 1).
		double low = (hits == 0) ? 0 : Math.max(0, centre - half);
		double high = (hits == total) ? 1 : Math.min(1, centre + half);
		return new Confidence(low, high);
	}

	/**
	 * The range of the mean of a Poisson count observed as {@code count} (Wilson-style
	 * score interval), e.g. the number of allocation samples, each standing for one
	 * sampling interval of bytes.
	 */
	static Confidence ofCount(double count) {
		double z2 = Z * Z;
		double centre = count + z2 / 2;
		double half = Z * Math.sqrt(count + z2 / 4);
		return new Confidence(Math.max(0, centre - half), centre + half);
	}

	Confidence times(double factor) {
		return new Confidence(this.low * factor, this.high * factor);
	}

	/** Whether the whole range is at most {@code bound}. */
	boolean atMost(double bound) {
		return this.high <= bound;
	}

	/** Whether the whole range is above {@code bound}. */
	boolean above(double bound) {
		return this.low > bound;
	}

	/** Whether the whole range is at least {@code bound}. */
	boolean atLeast(double bound) {
		return this.low >= bound;
	}

	/** Whether the whole range is below {@code bound}. */
	boolean below(double bound) {
		return this.high < bound;
	}

}
