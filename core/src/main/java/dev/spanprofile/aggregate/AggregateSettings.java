package dev.spanprofile.aggregate;

import java.time.Duration;

/**
 * Bounds of the span-name aggregates.
 *
 * @param window how long a name's statistics and profiles are kept
 * @param bucket time resolution of the window: a query covers whole buckets, and expiry
 * drops one at a time
 * @param maxNames distinct local-root span names tracked; spans of later names count
 * under {@link #OTHER}
 * @param maxStacks distinct stacks counted per name and time bucket (all latency bands
 * and sample kinds); beyond it the thinnest are folded into a {@code [trimmed]} frame
 * under their caller
 * @param maxBytes approximate heap for all aggregates; beyond it the profiles of the
 * oldest buckets are dropped (their statistics stay)
 */
public record AggregateSettings(Duration window, Duration bucket, int maxNames, int maxStacks, long maxBytes) {

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
		if (maxStacks < 16) {
			throw new IllegalArgumentException("maxStacks must be at least 16, was " + maxStacks);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
		}
	}

	/**
	 * One hour in one-minute buckets, 50 names, 2000 stacks per name and minute, 32 MB.
	 */
	public static AggregateSettings defaults() {
		return new AggregateSettings(Duration.ofHours(1), Duration.ofMinutes(1), 50, 2000, 32L * 1024 * 1024);
	}

	/** Buckets the window spans. */
	int bucketCount() {
		return (int) Math.max(1, this.window.toNanos() / this.bucket.toNanos());
	}

}
