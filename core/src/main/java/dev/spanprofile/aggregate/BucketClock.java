package dev.spanprofile.aggregate;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The aggregates' time buckets on their clock: which bucket an instant falls in, and
 * which ones the last part of the window covers. Buckets are numbered from the epoch, so
 * a bucket's number is the same for every name.
 */
final class BucketClock {

	private final LongSupplier epochNanos;

	private final long bucketNanos;

	BucketClock(LongSupplier epochNanos, Duration bucket) {
		this.epochNanos = epochNanos;
		this.bucketNanos = bucket.toNanos();
	}

	/** The bucket being filled now. */
	long nowIndex() {
		return indexOf(this.epochNanos.getAsLong());
	}

	long bucketNanos() {
		return this.bucketNanos;
	}

	/** When bucket {@code index} starts. */
	long startOf(long index) {
		return index * this.bucketNanos;
	}

	long indexOf(long epochNanos) {
		return Math.floorDiv(epochNanos, this.bucketNanos);
	}

	/**
	 * The buckets of the last {@code window}, the one being filled counting as one: "last
	 * 15m" is it and 14 more.
	 */
	Range last(Duration window) {
		long now = nowIndex();
		long buckets = Math.max(1, -Math.floorDiv(-window.toNanos(), this.bucketNanos));
		return new Range(now - buckets + 1, now);
	}

	/** Bucket numbers {@code first} to {@code last}, both included. */
	record Range(long first, long last) {
	}

}
