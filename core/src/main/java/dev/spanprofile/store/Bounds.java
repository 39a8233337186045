package dev.spanprofile.store;

/**
 * A bound on spans and on memory at once, as the store is bounded by {@code max-spans}
 * and {@code max-memory}: one type for the store's bounds, where an eviction pass stops,
 * and the protected requests' half, so that the three are computed and compared alike.
 *
 * @param spans spans allowed
 * @param bytes approximate heap allowed
 */
record Bounds(long spans, long bytes) {

	/** Whether {@code spans} spans holding {@code bytes} in all exceed either bound. */
	boolean exceededBy(long spans, long bytes) {
		return spans > this.spans || bytes > this.bytes;
	}

	/**
	 * A sixty-fourth under these bounds: where a pass that found the store over them
	 * stops, so that the next pass is many requests away. A pass has a cost of its own
	 * beyond the requests it drops: with the store full at a few thousand requests a
	 * second, one pass per request started was a seventh of what spanprofile cost a
	 * request thread.
	 */
	Bounds whereAPassStops() {
		return new Bounds(this.spans - this.spans / 64, this.bytes - this.bytes / 64);
	}

	/** Half of both bounds (none of a store of one span). */
	Bounds half() {
		return new Bounds(this.spans / 2, this.bytes / 2);
	}

}
