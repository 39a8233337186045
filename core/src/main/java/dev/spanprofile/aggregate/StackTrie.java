package dev.spanprofile.aggregate;

import java.util.Arrays;

/**
 * Every distinct stack of every name's profiles, stored once as a path in one shared tree
 * of frames: a profile then only counts samples per stack id (the id of the stack's last
 * node). Stacks repeat across names, buckets and bands, so this is what lets an hour of
 * profiles fit in a few megabytes.
 * <p>
 * Bounded: never more than {@code capacity} nodes, placeholders included, so never more
 * bytes than {@link #capacityFor(long)} was given. Once full, a stack that would need new
 * nodes is cut at its deepest known frame and counted in a {@code [trimmed]} frame there,
 * or under the nearest caller that has one (the root always has). Not thread-safe.
 */
final class StackTrie {

	static final int ROOT = 0;

	private static final int MIN_CAPACITY = 64;

	/** Per node: its frame, parent and depth. */
	private static final int NODE_BYTES = 12;

	private final int trimmedFrame;

	private final int capacity;

	private int[] frames;

	private int[] parents;

	private int[] depths;

	private int size = 1;

	/** (parent id, frame id) to child id. */
	private final LongCounts children = new LongCounts();

	/** Scratch of {@link #intern(StackTrie, int, int[])}: the callers being resolved. */
	private int[] chain = new int[64];

	StackTrie(int trimmedFrame, int capacity) {
		this.trimmedFrame = trimmedFrame;
		this.capacity = Math.max(MIN_CAPACITY, capacity);
		int initial = Math.min(1024, this.capacity);
		this.frames = new int[initial];
		this.parents = new int[initial];
		this.depths = new int[initial];
		this.frames[ROOT] = -1;
		this.parents[ROOT] = -1;
		// Where a stack goes when nothing deeper has room: it exists from the start, so
		// there always is one.
		add(ROOT, trimmedFrame);
	}

	/**
	 * The most nodes a trie can hold within {@code bytes}, counting what its arrays cost
	 * when they have just doubled: the node arrays grow up to the capacity, the child
	 * table by powers of two and at two thirds full.
	 */
	static int capacityFor(long bytes) {
		long best = 0;
		for (long table = 8; table <= (1L << 30); table <<= 1) {
			long tableBytes = LongCounts.bytesFor((int) table);
			if (tableBytes > bytes) {
				break;
			}
			// The root has no entry in the child table.
			long nodes = Math.min(LongCounts.keysWithin((int) table) + 1, (bytes - tableBytes) / NODE_BYTES);
			best = Math.max(best, nodes);
		}
		return (int) Math.max(MIN_CAPACITY, Math.min(best, Integer.MAX_VALUE / 4));
	}

	/** The id of the stack {@code path[0..depth)}, root frame first. */
	int intern(int[] path, int depth) {
		int node = ROOT;
		for (int i = 0; i < depth; i++) {
			int child = (int) this.children.get(key(node, path[i]), -1);
			if (child < 0) {
				if (this.size >= this.capacity) {
					return trimmedUnder(node);
				}
				child = add(node, path[i]);
			}
			node = child;
		}
		return node;
	}

	/**
	 * The id in this trie of stack {@code node} of {@code from}, interned as
	 * {@link #intern} would intern its path; {@code mapped} (indexed by {@code from}'s
	 * ids, 0 where not known yet) remembers each node resolved, so that stacks sharing
	 * their callers resolve those once. What rebuilding a trie costs then follows the
	 * nodes it keeps, not the stacks times their depth.
	 */
	int intern(StackTrie from, int node, int[] mapped) {
		if (node == ROOT) {
			return ROOT;
		}
		int known = mapped[node];
		if (known != 0) {
			return known;
		}
		// Up to the nearest resolved caller (the root is always resolved), then down.
		int unresolved = 0;
		int[] chain = this.chain;
		for (int n = node; n != ROOT && mapped[n] == 0; n = from.parents[n]) {
			if (unresolved == chain.length) {
				chain = Arrays.copyOf(chain, unresolved * 2);
				this.chain = chain;
			}
			chain[unresolved++] = n;
		}
		int resolvedCaller = from.parents[chain[unresolved - 1]];
		int here = (resolvedCaller == ROOT) ? ROOT : mapped[resolvedCaller];
		for (int i = unresolved - 1; i >= 0; i--) {
			here = step(here, from.frames[chain[i]]);
			mapped[chain[i]] = here;
		}
		return here;
	}

	/**
	 * {@code node}'s child of {@code frame}, added if there is room, else cut as
	 * {@link #intern(int[], int)} cuts. A stack already cut ends at a {@code [trimmed]}
	 * node, which the cut returns again: it stays cut, as intern stops at the first frame
	 * with no room.
	 */
	private int step(int node, int frame) {
		int child = (int) this.children.get(key(node, frame), -1);
		if (child >= 0) {
			return child;
		}
		return (this.size < this.capacity) ? add(node, frame) : trimmedUnder(node);
	}

	/**
	 * The {@code [trimmed]} frame called from {@code node}, created if there is room,
	 * otherwise that of its nearest caller that has one; {@code node} itself if it is
	 * one.
	 */
	int trimmedUnder(int node) {
		if (this.frames[node] == this.trimmedFrame) {
			return node;
		}
		for (int caller = node;; caller = this.parents[caller]) {
			int trimmed = (int) this.children.get(key(caller, this.trimmedFrame), -1);
			if (trimmed >= 0) {
				return trimmed;
			}
			if (this.size < this.capacity) {
				return add(caller, this.trimmedFrame);
			}
		}
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

	int capacity() {
		return this.capacity;
	}

	long bytes() {
		return (long) NODE_BYTES * this.frames.length + this.children.bytes();
	}

	private int add(int parent, int frame) {
		if (this.size == this.frames.length) {
			int grown = (int) Math.min(this.capacity, this.size * 2L);
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
