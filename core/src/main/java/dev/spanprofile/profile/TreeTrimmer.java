package dev.spanprofile.profile;

import java.util.Arrays;

/**
 * Bounds a call tree to a node budget by folding its thinnest branches into one placeholder frame under their
 * caller. Totals are preserved: every sample still counts at every frame that was kept on its way, so the widths
 * of the kept frames do not change.
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
	 * {@code tree} itself when it has at most {@code maxStacks} nodes, otherwise a copy with at most
	 * {@code targetNodes} (placeholders included).
	 */
	public StackTree trim(StackTree tree, int maxStacks, int targetNodes) {
		if (tree.nodeCount() <= maxStacks) {
			return tree;
		}
		long[] totals = new long[tree.nodeCount()];
		int[] next = { 0 };
		tree.visit((path, depth, total, self) -> totals[next[0]++] = total);
		Arrays.sort(totals);
		// Keeping the nodes with total >= threshold gives a connected tree (a child never outweighs its caller);
		// find the lowest threshold whose kept nodes plus placeholders fit.
		int low = 0;
		int high = totals.length;
		while (low < high) {
			int mid = (low + high) >>> 1;
			if (keptWithPlaceholders(tree, totals[mid]) <= targetNodes) {
				high = mid;
			}
			else {
				low = mid + 1;
			}
		}
		long threshold = (low < totals.length) ? totals[low] : Long.MAX_VALUE;
		if (keptWithPlaceholders(tree, threshold) > targetNodes) {
			threshold = Long.MAX_VALUE;
		}
		return rebuild(tree, threshold);
	}

	private int keptWithPlaceholders(StackTree tree, long threshold) {
		int[] count = { 0 };
		// Per depth: whether the last node seen there was kept, and whether its placeholder was counted.
		boolean[][] state = { new boolean[64], new boolean[64] };
		tree.visit((path, depth, total, self) -> {
			if (depth + 1 > state[0].length) {
				state[0] = Arrays.copyOf(state[0], depth * 2);
				state[1] = Arrays.copyOf(state[1], depth * 2);
			}
			boolean parentKept = (depth == 1) || state[0][depth - 1];
			boolean kept = parentKept && total >= threshold;
			state[0][depth] = kept;
			state[1][depth] = false;
			if (kept) {
				count[0]++;
			}
			else if (parentKept && !state[1][depth - 1]) {
				state[1][depth - 1] = true;
				count[0]++;
			}
		});
		return count[0];
	}

	private StackTree rebuild(StackTree tree, long threshold) {
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

}
