package dev.spanprofile.aggregate;

/**
 * One span name over the window: latency statistics per bucket (guarded by this object,
 * see {@link LatencyStats}) and folded samples per bucket (guarded by
 * {@link NameProfiles}), apart so that a span ending never waits for a profile being
 * folded or read.
 */
final class NameAggregate {

	final String name;

	final BucketRing<TimeBucket> stats;

	final BucketRing<ProfileBucket> profiles;

	/**
	 * Swept: no longer in the names, so nothing recorded into it could be read. Written
	 * under both locks, read under either.
	 */
	boolean retired;

	NameAggregate(String name, int bucketCount) {
		this.name = name;
		this.stats = new BucketRing<>(bucketCount, TimeBucket::new);
		this.profiles = new BucketRing<>(bucketCount, ProfileBucket::new);
	}

}
