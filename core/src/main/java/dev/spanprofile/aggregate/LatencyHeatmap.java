package dev.spanprofile.aggregate;

import java.util.Arrays;

/**
 * A name's requests counted by time bucket and latency band: what its heatmap draws. The
 * bands are cut to those that hold requests, so that a name whose requests all take 2 to
 * 40 ms is not drawn as a thin line at the bottom of 64 bands. The counts are of the
 * requests whose profiles were folded, the same ones a merged profile counts.
 *
 * @param startEpochNanos each bucket's start, oldest first
 * @param bucketNanos how long a bucket is
 * @param bandEdgesNanos the bands' edges from the lowest band's lower edge up, one more
 * than the bands; the last is {@link Long#MAX_VALUE} when the top band has no upper limit
 * @param counts requests per bucket (first index) and band (second, lowest first)
 * @param errors requests with status ERROR per bucket and band
 */
public record LatencyHeatmap(long[] startEpochNanos, long bucketNanos, long[] bandEdgesNanos, long[][] counts,
		long[][] errors) {

	/**
	 * @param spans requests per bucket and band, every band
	 * @param errors failed requests per bucket and band, every band
	 */
	static LatencyHeatmap of(long firstBucket, long bucketNanos, long[][] spans, long[][] errors) {
		int lowest = LatencyBands.count();
		int highest = -1;
		for (long[] column : spans) {
			for (int band = 0; band < column.length; band++) {
				if (column[band] > 0) {
					lowest = Math.min(lowest, band);
					highest = Math.max(highest, band);
				}
			}
		}
		long[] starts = new long[spans.length];
		for (int i = 0; i < starts.length; i++) {
			starts[i] = (firstBucket + i) * bucketNanos;
		}
		if (highest < 0) {
			return new LatencyHeatmap(starts, bucketNanos, new long[0], new long[spans.length][0],
					new long[spans.length][0]);
		}
		long[] edges = new long[highest - lowest + 2];
		for (int band = lowest; band <= highest; band++) {
			edges[band - lowest] = LatencyBands.lowerEdgeNanos(band);
		}
		edges[edges.length - 1] = LatencyBands.upperEdgeNanos(highest);
		long[][] cutSpans = new long[spans.length][];
		long[][] cutErrors = new long[spans.length][];
		for (int i = 0; i < spans.length; i++) {
			cutSpans[i] = Arrays.copyOfRange(spans[i], lowest, highest + 1);
			cutErrors[i] = Arrays.copyOfRange(errors[i], lowest, highest + 1);
		}
		return new LatencyHeatmap(starts, bucketNanos, edges, cutSpans, cutErrors);
	}

	/** All requests counted. */
	public long total() {
		long total = 0;
		for (long[] column : this.counts) {
			for (long count : column) {
				total += count;
			}
		}
		return total;
	}

}
