package dev.spanprofile.aggregate;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * The latency statistics of every name, from every local root that ends: per name a ring
 * of {@link TimeBucket}s guarded by that name's {@link NameAggregate} itself, so that a
 * span ending waits only for a reader of its own name's statistics, never for profiles
 * being folded, compacted or read.
 */
final class LatencyStats {

	/** Bytes of all names' time buckets. */
	private final AtomicLong bytes = new AtomicLong();

	/**
	 * Count a span in its name's bucket {@code index} (unless that has left the window);
	 * with {@code spanId} {@code null}, a request that tracing did not sample.
	 * @return {@code false}, counting nothing, when the aggregate was retired: its name
	 * is to be looked up again
	 */
	boolean record(NameAggregate aggregate, long index, long nowIndex, String spanId, long durationNanos,
			boolean error) {
		synchronized (aggregate) {
			if (aggregate.retired) {
				return false;
			}
			TimeBucket bucket = aggregate.stats.bucket(index, nowIndex, this::released);
			if (bucket != null) {
				bucket.spanEnded(spanId, durationNanos, error);
				long grown = bucket.recount();
				if (grown != 0) {
					// Most requests leave the footprint as it was: no write to a line
					// every request thread shares.
					this.bytes.addAndGet(grown);
				}
			}
			return true;
		}
	}

	/** The latencies of a name's spans that ended in {@code buckets}. */
	Latencies over(NameAggregate aggregate, BucketClock.Range buckets) {
		Histogram latencies = new PackedHistogram(2);
		Slowest slowest = new Slowest(TimeBucket.SLOWEST_KEPT);
		// Errors, the longest duration and the unsampled requests.
		long[] totals = new long[3];
		synchronized (aggregate) {
			aggregate.stats.forEach(buckets.first(), buckets.last(), (bucket) -> {
				bucket.addLatenciesTo(latencies);
				bucket.addSlowestTo(slowest);
				totals[0] += bucket.errors();
				totals[1] = Math.max(totals[1], bucket.maxNanos());
				totals[2] += bucket.unsampled();
			});
		}
		return new Latencies(latencies, totals[0], totals[1], slowest.spanIds(), totals[2]);
	}

	/**
	 * Each {@code percentile} of a name's spans per bucket of {@code buckets}, oldest
	 * first; -1 where none ended.
	 */
	long[] percentilePerBucket(NameAggregate aggregate, BucketClock.Range buckets, double percentile) {
		long[] values = new long[(int) (buckets.last() - buckets.first() + 1)];
		Arrays.fill(values, -1);
		synchronized (aggregate) {
			aggregate.stats.forEach(buckets.first(), buckets.last(),
					(bucket) -> values[(int) (bucket.index() - buckets.first())] = bucket.percentileNanos(percentile));
		}
		return values;
	}

	/**
	 * Drop a name's buckets older than the window ending at {@code nowIndex}. The caller
	 * holds the aggregate's monitor, so that it can retire the aggregate before anything
	 * else is counted in it.
	 * @return whether any bucket is left
	 */
	boolean expire(NameAggregate aggregate, long nowIndex) {
		return aggregate.stats.expire(nowIndex, this::released);
	}

	long bytes() {
		return this.bytes.get();
	}

	private void released(TimeBucket bucket) {
		this.bytes.addAndGet(bucket.release());
	}

	/**
	 * @param histogram durations in microseconds
	 * @param errors spans with status ERROR
	 * @param maxNanos longest duration, exact
	 * @param slowest ids of the slowest spans, slowest first
	 * @param unsampled requests among them that tracing did not sample
	 */
	record Latencies(Histogram histogram, long errors, long maxNanos, List<String> slowest, long unsampled) {

		long count() {
			return this.histogram.getTotalCount();
		}

		/** All the requests' durations added up, from the histogram's microseconds. */
		long totalNanos() {
			return Math.round(this.histogram.getMean() * count() * 1000);
		}

		/**
		 * The histogram reports the top of a value's bucket, which may lie above the
		 * exact maximum: never beyond it.
		 */
		long percentileNanos(double percentile) {
			return (count() > 0) ? Math.min(this.maxNanos, this.histogram.getValueAtPercentile(percentile) * 1000) : 0;
		}

	}

}
