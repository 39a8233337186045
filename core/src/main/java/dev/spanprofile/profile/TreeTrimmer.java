package dev.spanprofile.profile;

import java.util.Arrays;

/**
 * Bounds a call tree by folding its thinnest branches into one placeholder under their
 * caller. Totals are preserved: every sample still counts at every frame that was kept on
 * its way, so the widths of the kept frames do not change.
 * <p>
 * One rule serves every tree bounded by its nodes (a name's merged profile, a flame graph
 * page): keep the nodes whose weight reaches a threshold, fold the rest, and take the
 * lowest threshold whose kept nodes and placeholders fit the budget. A child never
 * outweighs its caller, so the kept nodes form one connected tree. {@link #threshold}
 * finds it for any tree laid out as {@link Nodes}; {@link #trim} applies it to a
 * {@link StackTree}. (A profile bucket bounds distinct stacks, not nodes, and trims them
 * its own way: {@code aggregate.StackTrimming}.)
 */
public final class TreeTrimmer {

	private final int placeholderFrame;

	/**
	 * @param placeholder the name of the frame thin branches are folded into, such as
	 * {@code [trimmed]}: say that something was left out, and be no method's name
	 */
	public TreeTrimmer(FrameTable frames, String placeholder) {
		this.placeholderFrame = frames.intern(placeholder, FrameKind.JAVA);
	}

	/**
	 * The frame id of the placeholder, for a structure that folds into the same frame.
	 */
	public int placeholderFrame() {
		return this.placeholderFrame;
	}

	/**
	 * {@code tree} itself when it has at most {@code maxStacks} nodes, otherwise a copy
	 * of its first column with at most {@code targetNodes} (placeholders included).
	 */
	public StackTree trim(StackTree tree, int maxStacks, int targetNodes) {
		if (tree.nodeCount() <= maxStacks) {
			return tree;
		}
		Nodes nodes = new Nodes(tree.nodeCount());
		int[][] indexAt = { new int[64] };
		tree.visit((path, depth, total, self) -> {
			if (depth + 1 > indexAt[0].length) {
				indexAt[0] = Arrays.copyOf(indexAt[0], depth * 2);
			}
			indexAt[0][depth] = nodes.add((depth == 1) ? -1 : indexAt[0][depth - 1], total);
		});
		boolean[] kept = nodes.kept(threshold(nodes, targetNodes));
		StackTree trimmed = new StackTree();
		int[] next = { 0 };
		tree.visit((path, depth, total, self) -> {
			int node = next[0]++;
			int parent = nodes.parents[node];
			if (kept[node]) {
				trimmed.add(Arrays.copyOf(path, depth), self);
			}
			else if (parent < 0 || kept[parent]) {
				int[] stack = Arrays.copyOf(path, depth);
				stack[depth - 1] = this.placeholderFrame;
				trimmed.add(stack, total);
			}
		});
		return trimmed;
	}

	/**
	 * The lowest weight a node needs to be kept so that the kept nodes and placeholders
	 * number at most {@code budget}, or {@link Long#MAX_VALUE} when even the heaviest
	 * nodes alone do not fit. A node is kept when its caller is and its weight reaches
	 * the threshold; the nodes directly under the root are always candidates.
	 */
	public static long threshold(Nodes nodes, int budget) {
		long[] totals = Arrays.copyOf(nodes.totals, nodes.size);
		Arrays.sort(totals);
		Costing costing = new Costing(nodes);
		int low = 0;
		int high = totals.length;
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (costing.cost(totals[mid]) <= budget) {
				high = mid;
			}
			else {
				low = mid + 1;
			}
		}
		long threshold = (low < totals.length) ? totals[low] : Long.MAX_VALUE;
		return (costing.cost(threshold) <= budget) ? threshold : Long.MAX_VALUE;
	}

	/**
	 * A tree laid out for {@link #threshold}: each node with its caller (added before it;
	 * -1 for the root, which is not listed) and its weight.
	 */
	public static final class Nodes {

		private int[] parents;

		private long[] totals;

		private int size;

		public Nodes(int expected) {
			int capacity = Math.max(expected, 16);
			this.parents = new int[capacity];
			this.totals = new long[capacity];
		}

		/**
		 * @return the node's index, the parent of its callees
		 */
		public int add(int parent, long total) {
			if (parent >= this.size) {
				throw new IllegalArgumentException("Caller " + parent + " not added yet");
			}
			if (this.size == this.parents.length) {
				this.parents = Arrays.copyOf(this.parents, this.size * 2);
				this.totals = Arrays.copyOf(this.totals, this.size * 2);
			}
			this.parents[this.size] = parent;
			this.totals[this.size] = total;
			return this.size++;
		}

		/**
		 * Per node, whether it is kept at {@code threshold}: its caller is and its weight
		 * reaches it.
		 */
		public boolean[] kept(long threshold) {
			return kept(threshold, new boolean[this.size]);
		}

		private boolean[] kept(long threshold, boolean[] kept) {
			for (int i = 0; i < this.size; i++) {
				int parent = this.parents[i];
				kept[i] = (parent < 0 || kept[parent]) && this.totals[i] >= threshold;
			}
			return kept;
		}

	}

	/**
	 * How many nodes keeping those that reach a threshold leaves, with one placeholder
	 * per caller losing any.
	 */
	private static final class Costing {

		private final Nodes nodes;

		private final boolean[] kept;

		/**
		 * Per caller (the root last), whether it loses any callee: then it has a
		 * placeholder.
		 */
		private final boolean[] folds;

		Costing(Nodes nodes) {
			this.nodes = nodes;
			this.kept = new boolean[nodes.size];
			this.folds = new boolean[nodes.size + 1];
		}

		long cost(long threshold) {
			this.nodes.kept(threshold, this.kept);
			Arrays.fill(this.folds, false);
			long cost = 0;
			for (int i = 0; i < this.nodes.size; i++) {
				int parent = this.nodes.parents[i];
				if (this.kept[i]) {
					cost++;
				}
				else if (parent < 0 || this.kept[parent]) {
					int caller = (parent < 0) ? this.nodes.size : parent;
					cost += this.folds[caller] ? 0 : 1;
					this.folds[caller] = true;
				}
			}
			return cost;
		}

	}

}
