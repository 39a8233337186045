package dev.spanprofile.aggregate;

/**
 * Which of a name's requests a profile merges: those that ended between two instants and
 * lasted between two durations, a rectangle of its latency heatmap. Applied at the
 * matrix's cells: the instants widen to whole time buckets, the durations to whole
 * latency bands, so that the requests merged are exactly those the selected cells count.
 *
 * @param fromEpochNanos first end time included ({@link Long#MIN_VALUE}: the window's
 * start)
 * @param toEpochNanos first end time excluded ({@link Long#MAX_VALUE}: now)
 * @param minNanos shortest duration included
 * @param maxNanos first duration excluded ({@link Long#MAX_VALUE}: no limit); a maximum
 * on a band's lower edge leaves that band out
 */
public record LatencySelection(long fromEpochNanos, long toEpochNanos, long minNanos, long maxNanos) {

	/** Every request of the window with a duration in {@code [minNanos, maxNanos)}. */
	public static LatencySelection durations(long minNanos, long maxNanos) {
		return new LatencySelection(Long.MIN_VALUE, Long.MAX_VALUE, minNanos, maxNanos);
	}

	int fromBand() {
		return LatencyBands.of(this.minNanos);
	}

	int toBand() {
		if (this.maxNanos == Long.MAX_VALUE) {
			return LatencyBands.count() - 1;
		}
		return Math.max(fromBand(), LatencyBands.of(this.maxNanos - 1));
	}

	/**
	 * The buckets of {@code window} this selection's instants cover; empty
	 * ({@code first > last}) when none.
	 */
	BucketClock.Range buckets(BucketClock clock, BucketClock.Range window) {
		long first = (this.fromEpochNanos != Long.MIN_VALUE)
				? Math.max(window.first(), clock.indexOf(this.fromEpochNanos)) : window.first();
		long last = (this.toEpochNanos != Long.MAX_VALUE)
				? Math.min(window.last(), clock.indexOf(this.toEpochNanos - 1)) : window.last();
		return new BucketClock.Range(first, last);
	}

	/** The cells of this selection within {@code window}. */
	Cells cells(BucketClock clock, BucketClock.Range window) {
		BucketClock.Range buckets = buckets(clock, window);
		int fromBand = fromBand();
		int toBand = toBand();
		return (bucket, band) -> bucket >= buckets.first() && bucket <= buckets.last() && band >= fromBand
				&& band <= toBand;
	}

}
