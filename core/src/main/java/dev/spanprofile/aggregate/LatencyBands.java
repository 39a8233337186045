package dev.spanprofile.aggregate;

import java.util.Arrays;

/**
 * Log-spaced duration bands: three per doubling from 0.1 ms, so a band is about 26 % wide
 * at any scale. Profiles are kept per band, which lets a query restrict a name's profile
 * to a duration range after the fact, at the price of rounding that range out to band
 * edges.
 */
public final class LatencyBands {

	private static final long BASE_NANOS = 100_000;

	private static final int PER_DOUBLING = 3;

	/**
	 * Lower edges; band 0 is everything below 0.1 ms, the last band everything above
	 * about 2 minutes.
	 */
	private static final long[] LOWER_EDGES = edges(3 * 21 + 1);

	private LatencyBands() {
	}

	private static long[] edges(int count) {
		long[] edges = new long[count];
		for (int i = 1; i < count; i++) {
			edges[i] = Math.round(BASE_NANOS * Math.pow(2, (i - 1) / (double) PER_DOUBLING));
		}
		return edges;
	}

	public static int count() {
		return LOWER_EDGES.length;
	}

	/** The band holding {@code durationNanos}. */
	public static int of(long durationNanos) {
		int index = Arrays.binarySearch(LOWER_EDGES, Math.max(0, durationNanos));
		return (index >= 0) ? index : -index - 2;
	}

	/** Shortest duration in {@code band}. */
	public static long lowerEdgeNanos(int band) {
		return LOWER_EDGES[band];
	}

	/** First duration above {@code band}, or {@link Long#MAX_VALUE} for the last one. */
	public static long upperEdgeNanos(int band) {
		return (band + 1 < LOWER_EDGES.length) ? LOWER_EDGES[band + 1] : Long.MAX_VALUE;
	}

	/** The band whose lower edge is nearest to {@code nanos} on a log scale. */
	static int nearestEdge(long nanos) {
		int band = of(nanos);
		if (band + 1 < count()) {
			double below = (double) nanos / Math.max(1, lowerEdgeNanos(band));
			double above = (double) lowerEdgeNanos(band + 1) / Math.max(1, nanos);
			if (above < below) {
				return band + 1;
			}
		}
		return band;
	}

	/**
	 * The first band of the slow spans by default: those slower than the p90's whole
	 * band, so that no typical span is called slow by rounding; when none is (all in one
	 * band), the p90's band itself. Never band 0, so that the typical side is a range of
	 * bands too.
	 */
	static int slowFrom(long[] spansPerBand, long p90Nanos) {
		int p90Band = of(p90Nanos);
		int split = p90Band + 1;
		long above = 0;
		for (int band = split; band < spansPerBand.length; band++) {
			above += spansPerBand[band];
		}
		return Math.max(1, (above > 0) ? split : p90Band);
	}

}
