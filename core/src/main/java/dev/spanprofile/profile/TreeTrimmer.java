package dev.spanprofile.profile;

import java.util.Arrays;

/**
 * Bounds a call tree by folding its thinnest branches into one placeholder under their caller. Totals are
 * preserved: every sample still counts at every frame that was kept on its way, so the widths of the kept frames do
 * not change.
 * <p>
 * One rule serves every tree that needs bounding (a merged profile, a profile bucket's interned stacks, a flame
 * graph page): keep the nodes whose weight reaches a threshold, fold the rest, and take the lowest threshold whose
 * kept nodes and placeholders fit the budget. A child never outweighs its caller, so the kept nodes form one
 * connected tree. {@link #threshold} finds it for any tree laid out as {@link Nodes}; {@link #trim} applies it to a
 * {@link StackTree}.
 */
public final class TreeTrimmer {

	private final int placeholderFrame;

	/**
	 * @param placeholder the name of the frame thin branches are folded into, such as {@code [trimmed]}: say that
	 * something was left out, and be no method's name
	 */
	public TreeTrimmer(FrameTable frames, String placeholder) {
		this.placeholderFrame = frames.intern(placeholder, FrameKind.JAVA);
	}

	/** The frame id of the placeholder, for a structure that folds into the same frame. */
	public int placeholderFrame() {
		return this.placeholderFrame;
	}

	/**
	 * {@code tree} itself when it has at most {@code maxStacks} nodes, otherwise a copy of its first column with at
	 * most {@code targetNodes} (placeholders included).
	 */
	public StackTree trim(StackTree tree, int maxStacks, int targetNodes) {
		if (tree.nodeCount() <= maxStacks) {
			return tree;
		}
		Nodes nodes = new Nodes(tree.nodeCount());
		tree.visit((path, depth, total, self) -> nodes.add(depth, total, 1));
		long threshold = threshold(nodes, targetNodes, 1);
		StackTree trimmed = new StackTree();
		boolean[][] keptAt = { new boolean[64] };
		tree.visit((path, depth, total, self) -> {
			if (depth + 1 > keptAt[0].length) {
				keptAt[0] = Arrays.copyOf(keptAt[0], depth * 2);
			}
			boolean parentKept = (depth == 1) || keptAt[0][depth - 1];
			boolean kept = parentKept && total >= threshold;
			keptAt[0][depth] = kept;
			if (kept) {
				trimmed.add(Arrays.copyOf(path, depth), self);
			}
			else if (parentKept) {
				int[] stack = Arrays.copyOf(path, depth);
				stack[depth - 1] = this.placeholderFrame;
				trimmed.add(stack, total);
			}
		});
		return trimmed;
	}

	/**
	 * The lowest weight a node needs to be kept so that what is kept costs at most {@code budget}, or
	 * {@link Long#MAX_VALUE} when even the heaviest nodes alone do not fit. A node is kept when its caller is and
	 * its weight reaches the threshold; the nodes directly under the root are always candidates.
	 * @param placeholderCost the most one placeholder costs, however much is folded into it: 1 where it is one
	 * node, the number of distinct value columns where it is one stack per column
	 */
	public static long threshold(Nodes nodes, int budget, int placeholderCost) {
		long[] totals = Arrays.copyOf(nodes.totals, nodes.size);
		Arrays.sort(totals);
		int[] subtreeCosts = nodes.subtreeCosts();
		int low = 0;
		int high = totals.length;
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (nodes.cost(totals[mid], subtreeCosts, placeholderCost) <= budget) {
				high = mid;
			}
			else {
				low = mid + 1;
			}
		}
		long threshold = (low < totals.length) ? totals[low] : Long.MAX_VALUE;
		return (nodes.cost(threshold, subtreeCosts, placeholderCost) <= budget) ? threshold : Long.MAX_VALUE;
	}

	/**
	 * A tree laid out for {@link #threshold}: its nodes depth first, each with its depth (1 directly under the
	 * root, which is not listed), its weight and what keeping it costs of the budget (1 for a node; the stacks
	 * ending in it where the budget counts stacks).
	 */
	public static final class Nodes {

		private int[] depths;

		private long[] totals;

		private int[] costs;

		private int size;

		public Nodes(int expected) {
			int capacity = Math.max(expected, 16);
			this.depths = new int[capacity];
			this.totals = new long[capacity];
			this.costs = new int[capacity];
		}

		public void add(int depth, long total, int cost) {
			if (this.size == this.depths.length) {
				this.depths = Arrays.copyOf(this.depths, this.size * 2);
				this.totals = Arrays.copyOf(this.totals, this.size * 2);
				this.costs = Arrays.copyOf(this.costs, this.size * 2);
			}
			this.depths[this.size] = depth;
			this.totals[this.size] = total;
			this.costs[this.size] = cost;
			this.size++;
		}

		/** What keeping the nodes that reach {@code threshold} costs, one placeholder per caller losing any. */
		private long cost(long threshold, int[] subtreeCosts, int placeholderCost) {
			long cost = 0;
			// Per depth: whether the last node there was kept, and what its callees folded so far would cost.
			boolean[] kept = new boolean[64];
			long[] folded = new long[64];
			int deepest = 0;
			for (int i = 0; i < this.size; i++) {
				int depth = this.depths[i];
				if (depth + 1 > kept.length) {
					kept = Arrays.copyOf(kept, depth * 2);
					folded = Arrays.copyOf(folded, depth * 2);
				}
				// Callers at this depth or deeper are finished: their placeholders are complete.
				for (; deepest >= depth; deepest--) {
					cost += Math.min(folded[deepest], placeholderCost);
					folded[deepest] = 0;
				}
				boolean parentKept = (depth == 1) || kept[depth - 1];
				kept[depth] = parentKept && this.totals[i] >= threshold;
				if (kept[depth]) {
					cost += this.costs[i];
				}
				else if (parentKept) {
					folded[depth - 1] += subtreeCosts[i];
					deepest = Math.max(deepest, depth - 1);
				}
				deepest = Math.max(deepest, depth);
			}
			for (; deepest >= 0; deepest--) {
				cost += Math.min(folded[deepest], placeholderCost);
			}
			return cost;
		}

		/** Per node, what it and everything under it cost. */
		private int[] subtreeCosts() {
			int[] subtree = Arrays.copyOf(this.costs, this.size);
			int[] open = new int[64];
			int top = -1;
			for (int i = 0; i < this.size; i++) {
				while (top >= 0 && this.depths[open[top]] >= this.depths[i]) {
					close(subtree, open, top--);
				}
				if (top + 1 == open.length) {
					open = Arrays.copyOf(open, open.length * 2);
				}
				open[++top] = i;
			}
			while (top >= 0) {
				close(subtree, open, top--);
			}
			return subtree;
		}

		private static void close(int[] subtree, int[] open, int top) {
			if (top > 0) {
				subtree[open[top - 1]] += subtree[open[top]];
			}
		}

	}

}
