package dev.spanprofile.store;

import java.util.Arrays;

import dev.spanprofile.profile.StackTree;

/**
 * One span's samples of one kind, as a list of distinct stacks with their weights: each
 * stack is one {@code int[]}. A call tree of the same samples costs a node object per
 * frame, and a span's samples live for seconds while the application's own garbage dies
 * in milliseconds: on deep stacks (150 frames) the tree made every sampled request add
 * 150 small objects that young collections had to copy. The tree is built only when
 * someone looks.
 * <p>
 * Not thread-safe; {@link SpanRecord} guards it.
 */
final class SampledStacks {

	/** Below this many stacks a linear search is cheaper than keeping an index. */
	private static final int INDEX_FROM = 8;

	private int[][] stacks = new int[2][];

	private long[] weights = new long[2];

	/**
	 * Events per stack, for kinds that count them (lock waits); {@code null} until one is
	 * added.
	 */
	private long[] events;

	private long eventTotal;

	private int size;

	private long total;

	/** Where the stack of the last {@link #add} is: for a timeline that refers to it. */
	private int lastPosition = -1;

	/**
	 * Open addressing over {@link #stacks}: slot holds position + 1, 0 is empty. Built
	 * once the list grows.
	 */
	private int[] index;

	/**
	 * Add {@code weight} to {@code rootFirstStack}, copying the stack the first time it
	 * is seen here (the caller's array may be shared or reused).
	 * @return the bytes this added to the span, 0 when the stack was already here
	 */
	long add(int[] rootFirstStack, long weight) {
		return add(rootFirstStack, weight, 0);
	}

	/**
	 * As {@link #add(int[], long)}, the sample standing for {@code events} events (lock
	 * waits) besides its weight.
	 */
	long add(int[] rootFirstStack, long weight, long events) {
		this.total += weight;
		this.eventTotal += events;
		int found = find(rootFirstStack);
		if (found >= 0) {
			this.lastPosition = found;
			this.weights[found] += weight;
			countEvents(found, events);
			return 0;
		}
		if (this.size == this.stacks.length) {
			this.stacks = Arrays.copyOf(this.stacks, this.size * 2);
			this.weights = Arrays.copyOf(this.weights, this.size * 2);
			if (this.events != null) {
				this.events = Arrays.copyOf(this.events, this.size * 2);
			}
		}
		int position = this.size++;
		this.lastPosition = position;
		this.stacks[position] = rootFirstStack.clone();
		this.weights[position] = weight;
		countEvents(position, events);
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

	private void countEvents(int position, long events) {
		if (events == 0) {
			return;
		}
		if (this.events == null) {
			// Charged with every stack by bytesOf: only lock trees have it, and then on
			// every stack.
			this.events = new long[this.stacks.length];
		}
		this.events[position] += events;
	}

	/**
	 * Heap one distinct stack costs: its array, its slots in the lists, about two slots
	 * of index.
	 */
	static long bytesOf(int depth) {
		// The array, its reference, weight, events (lock kinds only, but charged always),
		// index slots.
		return 16 + 4L * depth + 8 + 8 + 8 + 8;
	}

	/** Position of the stack the last {@link #add} added to; positions never change. */
	int lastPosition() {
		return this.lastPosition;
	}

	/** The stack at {@code position}, root first; not to be modified. */
	int[] stack(int position) {
		return this.stacks[position];
	}

	long totalWeight() {
		return this.total;
	}

	/** Events counted by {@link #add(int[], long, long)}. */
	long events() {
		return this.eventTotal;
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
			tree.add(this.stacks[i], this.weights[i], (this.events != null) ? this.events[i] : 0);
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

	/**
	 * @return the change in the index's bytes
	 */
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
