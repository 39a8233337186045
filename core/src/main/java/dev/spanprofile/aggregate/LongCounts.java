package dev.spanprofile.aggregate;

import java.util.Arrays;

/**
 * Non-negative long keys to long values, open addressing: about 16 bytes a key at most
 * 2/3 full, against some 60 for a boxed map entry. Not thread-safe.
 */
final class LongCounts {

	private static final long EMPTY = -1;

	private long[] keys;

	private long[] values;

	private int size;

	LongCounts() {
		this(8);
	}

	private LongCounts(int capacity) {
		this.keys = new long[capacity];
		this.values = new long[capacity];
		Arrays.fill(this.keys, EMPTY);
	}

	/** The value of {@code key}, or {@code missing}. */
	long get(long key, long missing) {
		int slot = find(key);
		return (this.keys[slot] == key) ? this.values[slot] : missing;
	}

	void put(long key, long value) {
		int slot = find(key);
		if (this.keys[slot] != key) {
			this.keys[slot] = key;
			this.size++;
			this.values[slot] = value;
			growIfNeeded();
			return;
		}
		this.values[slot] = value;
	}

	void add(long key, long delta) {
		int slot = find(key);
		if (this.keys[slot] != key) {
			this.keys[slot] = key;
			this.values[slot] = delta;
			this.size++;
			growIfNeeded();
			return;
		}
		this.values[slot] += delta;
	}

	int size() {
		return this.size;
	}

	long bytes() {
		return bytesFor(this.keys.length);
	}

	/** What a table of {@code length} slots costs. */
	static long bytesFor(int length) {
		return 16L * length + 48;
	}

	/** The most keys a table of {@code length} slots holds before it doubles. */
	static long keysWithin(int length) {
		return (2L * length - 1) / 3;
	}

	void forEach(Entry visitor) {
		for (int i = 0; i < this.keys.length; i++) {
			if (this.keys[i] != EMPTY) {
				visitor.accept(this.keys[i], this.values[i]);
			}
		}
	}

	private int find(long key) {
		int mask = this.keys.length - 1;
		int slot = (int) (mix(key) & mask);
		while (this.keys[slot] != EMPTY && this.keys[slot] != key) {
			slot = (slot + 1) & mask;
		}
		return slot;
	}

	private static long mix(long key) {
		long h = key * 0x9E3779B97F4A7C15L;
		return h ^ (h >>> 29);
	}

	private void growIfNeeded() {
		if (this.size <= keysWithin(this.keys.length)) {
			return;
		}
		long[] oldKeys = this.keys;
		long[] oldValues = this.values;
		this.keys = new long[oldKeys.length * 2];
		this.values = new long[oldKeys.length * 2];
		Arrays.fill(this.keys, EMPTY);
		this.size = 0;
		for (int i = 0; i < oldKeys.length; i++) {
			if (oldKeys[i] != EMPTY) {
				put(oldKeys[i], oldValues[i]);
			}
		}
	}

	@FunctionalInterface
	interface Entry {

		void accept(long key, long value);

	}

}
