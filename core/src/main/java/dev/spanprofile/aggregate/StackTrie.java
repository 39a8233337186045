package dev.spanprofile.aggregate;

import java.util.Arrays;

/**
 * Every distinct stack of every name's profiles, stored once as a path in one shared tree of frames: a profile
 * then only counts samples per stack id (the id of the stack's last node). Stacks repeat across names, buckets
 * and bands, so this is what lets an hour of profiles fit in a few megabytes.
 * <p>
 * Bounded: once {@code capacity} nodes exist, a stack that would need new nodes is cut at its deepest known frame
 * and counted in a {@code [trimmed]} frame there (one per node at most). Not thread-safe.
 */
final class StackTrie {

	static final int ROOT = 0;

	private final int trimmedFrame;

	private final int capacity;

	private int[] frames = new int[1024];

	private int[] parents = new int[1024];

	private int[] depths = new int[1024];

	private int size = 1;

	/** (parent id, frame id) to child id. */
	private final LongCounts children = new LongCounts();

	StackTrie(int trimmedFrame, int capacity) {
		this.trimmedFrame = trimmedFrame;
		this.capacity = capacity;
		this.frames[ROOT] = -1;
		this.parents[ROOT] = -1;
	}

	/** The id of the stack {@code path[0..depth)}, root frame first. */
	int intern(int[] path, int depth) {
		int node = ROOT;
		for (int i = 0; i < depth; i++) {
			int child = (int) this.children.get(key(node, path[i]), -1);
			if (child < 0) {
				if (this.size >= this.capacity && path[i] != this.trimmedFrame) {
					return child(node, this.trimmedFrame);
				}
				child = add(node, path[i]);
			}
			node = child;
		}
		return node;
	}

	/** The id of {@code frame} called from {@code parent}, created if needed. */
	int child(int parent, int frame) {
		int child = (int) this.children.get(key(parent, frame), -1);
		return (child >= 0) ? child : add(parent, frame);
	}

	int parent(int node) {
		return this.parents[node];
	}

	int frame(int node) {
		return this.frames[node];
	}

	int trimmedFrame() {
		return this.trimmedFrame;
	}

	/** The frames of stack {@code node}, root first. */
	int[] path(int node) {
		int[] path = new int[this.depths[node]];
		for (int i = path.length - 1; i >= 0; i--) {
			path[i] = this.frames[node];
			node = this.parents[node];
		}
		return path;
	}

	int size() {
		return this.size;
	}

	boolean full() {
		return this.size >= this.capacity;
	}

	long bytes() {
		return 12L * this.frames.length + this.children.bytes();
	}

	private int add(int parent, int frame) {
		if (this.size == this.frames.length) {
			int grown = this.size * 2;
			this.frames = Arrays.copyOf(this.frames, grown);
			this.parents = Arrays.copyOf(this.parents, grown);
			this.depths = Arrays.copyOf(this.depths, grown);
		}
		int id = this.size++;
		this.frames[id] = frame;
		this.parents[id] = parent;
		this.depths[id] = this.depths[parent] + 1;
		this.children.put(key(parent, frame), id);
		return id;
	}

	private static long key(int parent, int frame) {
		return ((long) parent << 32) | (frame & 0xFFFFFFFFL);
	}

}
