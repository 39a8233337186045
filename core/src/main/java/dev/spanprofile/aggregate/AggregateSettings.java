package dev.spanprofile.aggregate;

import java.time.Duration;

/**
 * Bounds of the span-name aggregates.
 *
 * @param window how long a name's statistics and profiles are kept
 * @param bucket time resolution of the window: a query covers whole buckets, and expiry drops one at a time
 * @param maxNames distinct local-root span names tracked; spans of later names count under {@link #OTHER}
 * @param maxNodes call-tree nodes per profile (one name, bucket, latency band and sample kind); beyond it the
 * thinnest branches are folded into one {@code [trimmed]} frame
 * @param maxBytes approximate heap for all aggregates; beyond it the profiles of the oldest buckets are dropped
 * (their statistics stay)
 */
public record AggregateSettings(Duration window, Duration bucket, int maxNames, int maxNodes, long maxBytes) {

	/** Name under which spans of names beyond {@link #maxNames()} are aggregated. */
	public static final String OTHER = "other";

	public AggregateSettings {
		if (bucket.toMillis() < 1) {
			throw new IllegalArgumentException("bucket must be at least 1ms, was " + bucket);
		}
		if (window.compareTo(bucket) < 0) {
			throw new IllegalArgumentException("window (" + window + ") must be at least one bucket (" + bucket + ")");
		}
		if (window.dividedBy(bucket) > 10_000) {
			throw new IllegalArgumentException("window " + window + " holds more than 10000 buckets of " + bucket);
		}
		if (maxNames < 1) {
			throw new IllegalArgumentException("maxNames must be at least 1, was " + maxNames);
		}
		if (maxNodes < 16) {
			throw new IllegalArgumentException("maxNodes must be at least 16, was " + maxNodes);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
		}
	}

	/** One hour in one-minute buckets, 50 names, 2000 nodes per profile, 16 MB. */
	public static AggregateSettings defaults() {
		return new AggregateSettings(Duration.ofHours(1), Duration.ofMinutes(1), 50, 2000, 16L * 1024 * 1024);
	}

	/** Buckets the window spans. */
	int bucketCount() {
		return (int) Math.max(1, this.window.toNanos() / this.bucket.toNanos());
	}

}
