package dev.spanprofile.store;

import java.util.Arrays;

/**
 * One span's samples of one kind, as a list of distinct stacks with their weights: each stack is one {@code int[]}.
 * A call tree of the same samples costs a node object per frame, and a span's samples live for seconds while the
 * application's own garbage dies in milliseconds: on deep stacks (150 frames) the tree made every sampled request
 * add 150 small objects that young collections had to copy. The tree is built only when someone looks.
 * <p>
 * Not thread-safe; {@link SpanRecord} guards it.
 */
final class SampledStacks {

	/** Below this many stacks a linear search is cheaper than keeping an index. */
	private static final int INDEX_FROM = 8;

	private int[][] stacks = new int[2][];

	private long[] weights = new long[2];

	private int size;

	private long total;

	/** Open addressing over {@link #stacks}: slot holds position + 1, 0 is empty. Built once the list grows. */
	private int[] index;

	/**
	 * Add {@code weight} to {@code rootFirstStack}, copying the stack the first time it is seen here (the caller's
	 * array may be shared or reused).
	 * @return the bytes this added to the span, 0 when the stack was already here
	 */
	long add(int[] rootFirstStack, long weight) {
		this.total += weight;
		int found = find(rootFirstStack);
		if (found >= 0) {
			this.weights[found] += weight;
			return 0;
		}
		if (this.size == this.stacks.length) {
			this.stacks = Arrays.copyOf(this.stacks, this.size * 2);
			this.weights = Arrays.copyOf(this.weights, this.size * 2);
		}
		int position = this.size++;
		this.stacks[position] = rootFirstStack.clone();
		this.weights[position] = weight;
		long bytes = bytesOf(rootFirstStack.length);
		if (this.index != null) {
			if (this.size * 2 > this.index.length) {
				bytes += rebuildIndex();
			}
			else {
				insert(position);
			}
		}
		else if (this.size >= INDEX_FROM) {
			bytes += rebuildIndex();
		}
		return bytes;
	}

	/** Heap one distinct stack costs: its array, a slot in the lists, about two slots of index. */
	static long bytesOf(int depth) {
		return 16 + 4L * depth + 8 + 8 + 8;
	}

	long totalWeight() {
		return this.total;
	}

	/** Heap held, as charged by {@link #add}. */
	long bytes() {
		long bytes = 0;
		for (int i = 0; i < this.size; i++) {
			bytes += bytesOf(this.stacks[i].length);
		}
		return bytes + ((this.index != null) ? 4L * this.index.length : 0);
	}

	/** The samples as a call tree, for views and aggregates. */
	StackTree toTree() {
		StackTree tree = new StackTree();
		for (int i = 0; i < this.size; i++) {
			tree.add(this.stacks[i], this.weights[i]);
		}
		return tree;
	}

	private int find(int[] stack) {
		if (this.index == null) {
			for (int i = 0; i < this.size; i++) {
				if (Arrays.equals(this.stacks[i], stack)) {
					return i;
				}
			}
			return -1;
		}
		int mask = this.index.length - 1;
		for (int slot = Arrays.hashCode(stack) & mask;; slot = (slot + 1) & mask) {
			int entry = this.index[slot];
			if (entry == 0) {
				return -1;
			}
			if (Arrays.equals(this.stacks[entry - 1], stack)) {
				return entry - 1;
			}
		}
	}

	/** @return the change in the index's bytes */
	private long rebuildIndex() {
		long before = (this.index != null) ? 4L * this.index.length : 0;
		this.index = new int[Integer.highestOneBit(this.size * 4 - 1) << 1];
		for (int i = 0; i < this.size; i++) {
			insert(i);
		}
		return 4L * this.index.length - before;
	}

	private void insert(int position) {
		int mask = this.index.length - 1;
		int slot = Arrays.hashCode(this.stacks[position]) & mask;
		while (this.index[slot] != 0) {
			slot = (slot + 1) & mask;
		}
		this.index[slot] = position + 1;
	}

}
