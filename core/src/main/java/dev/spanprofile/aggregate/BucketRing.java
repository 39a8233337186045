package dev.spanprofile.aggregate;

import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * A name's buckets over the window, as a ring: a slot is reused once its bucket has left
 * the window. Guarded by whoever owns it.
 */
final class BucketRing<B extends BucketRing.Indexed> {

	private final Object[] ring;

	private final LongFunction<B> factory;

	BucketRing(int bucketCount, LongFunction<B> factory) {
		// One extra slot: the bucket being filled plus a whole window of complete ones.
		this.ring = new Object[bucketCount + 1];
		this.factory = factory;
	}

	/**
	 * The bucket with {@code index}, created if needed; {@code null} when it is older
	 * than the window ending at {@code nowIndex}. {@code expired} receives a bucket
	 * pushed out of its slot.
	 */
	B bucket(long index, long nowIndex, Consumer<B> expired) {
		if (index <= nowIndex - this.ring.length || index > nowIndex + 1) {
			return null;
		}
		int slot = (int) Math.floorMod(index, (long) this.ring.length);
		B bucket = at(slot);
		if (bucket != null && bucket.index() == index) {
			return bucket;
		}
		if (bucket != null && bucket.index() > index) {
			return null;
		}
		if (bucket != null) {
			expired.accept(bucket);
		}
		bucket = this.factory.apply(index);
		this.ring[slot] = bucket;
		return bucket;
	}

	/**
	 * Drop buckets older than the window ending at {@code nowIndex}. @return whether any
	 * bucket is left
	 */
	boolean expire(long nowIndex, Consumer<B> expired) {
		boolean any = false;
		for (int i = 0; i < this.ring.length; i++) {
			B bucket = at(i);
			if (bucket != null && bucket.index() <= nowIndex - this.ring.length) {
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
	void forEach(long fromIndex, long toIndex, Consumer<B> visitor) {
		for (int i = 0; i < this.ring.length; i++) {
			B bucket = at(i);
			if (bucket != null && bucket.index() >= fromIndex && bucket.index() <= toIndex) {
				visitor.accept(bucket);
			}
		}
	}

	@SuppressWarnings("unchecked")
	private B at(int slot) {
		return (B) this.ring[slot];
	}

	/** A bucket: knows which one it is. */
	interface Indexed {

		long index();

	}

}
