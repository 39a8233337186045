package dev.spanprofile.aggregate;

import java.util.function.Consumer;

/**
 * One span name's time buckets over the window, as a ring: a slot is reused once its bucket has left the window.
 * All access is synchronized on this object.
 */
final class NameAggregate {

	final String name;

	private final TimeBucket[] ring;

	NameAggregate(String name, int bucketCount) {
		this.name = name;
		// One extra slot: the bucket being filled plus a whole window of complete ones.
		this.ring = new TimeBucket[bucketCount + 1];
	}

	/**
	 * The bucket with {@code index}, created if needed; {@code null} when it is older than the window ending at
	 * {@code nowIndex}. {@code expired} receives a bucket pushed out of its slot.
	 */
	TimeBucket bucket(long index, long nowIndex, Consumer<TimeBucket> expired) {
		if (index <= nowIndex - this.ring.length || index > nowIndex + 1) {
			return null;
		}
		int slot = (int) Math.floorMod(index, (long) this.ring.length);
		TimeBucket bucket = this.ring[slot];
		if (bucket != null && bucket.index == index) {
			return bucket;
		}
		if (bucket != null && bucket.index > index) {
			return null;
		}
		if (bucket != null) {
			expired.accept(bucket);
		}
		bucket = new TimeBucket(index);
		this.ring[slot] = bucket;
		return bucket;
	}

	/** Drop buckets older than the window ending at {@code nowIndex}. @return whether any bucket is left */
	boolean expire(long nowIndex, Consumer<TimeBucket> expired) {
		boolean any = false;
		for (int i = 0; i < this.ring.length; i++) {
			TimeBucket bucket = this.ring[i];
			if (bucket != null && bucket.index <= nowIndex - this.ring.length) {
				expired.accept(bucket);
				this.ring[i] = null;
			}
			else if (bucket != null) {
				any = true;
			}
		}
		return any;
	}

	/** Visit the buckets with index in {@code [fromIndex, toIndex]}. */
	void forEach(long fromIndex, long toIndex, Consumer<TimeBucket> visitor) {
		for (TimeBucket bucket : this.ring) {
			if (bucket != null && bucket.index >= fromIndex && bucket.index <= toIndex) {
				visitor.accept(bucket);
			}
		}
	}

	/** The oldest bucket still holding call trees, or {@code null}. */
	TimeBucket oldestWithProfiles() {
		TimeBucket oldest = null;
		for (TimeBucket bucket : this.ring) {
			if (bucket != null && bucket.holdsProfiles() && (oldest == null || bucket.index < oldest.index)) {
				oldest = bucket;
			}
		}
		return oldest;
	}

}
