package dev.spanprofile.aggregate;

import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.TreeTrimmer;

/**
 * Bounds the distinct stacks one profile bucket counts with the {@link TreeTrimmer}'s rule: the bucket's stacks
 * form a tree of trie nodes, and its thinnest branches move to the {@code [trimmed]} frame under their caller,
 * where their stacks merge. The budget counts keys (a stack in one sample kind and latency band), so a node costs
 * the keys ending in it and a placeholder at most one key per kind and band. Every sample still counts, and at
 * every frame that was kept on its way.
 */
final class StackTrimming {

	private final StackTrie trie;

	StackTrimming(StackTrie trie) {
		this.trie = trie;
	}

	/**
	 * Trim {@code bucket} when it counts more than {@code maxStacks} keys: to three quarters of them, not to the
	 * budget, so that a busy bucket is not trimmed on every span.
	 * @return whether it was trimmed, leaving stacks in the trie that it no longer counts
	 */
	boolean bound(ProfileBucket bucket, int maxStacks) {
		if (bucket.counts().size() <= maxStacks) {
			return false;
		}
		bucket.replaceCounts(trim(bucket.counts(), maxStacks * 3 / 4));
		return true;
	}

	/** {@code counts} with at most {@code target} keys (or as few as trimming to the root allows). */
	LongCounts trim(LongCounts counts, int target) {
		if (counts.size() <= target) {
			return counts;
		}
		// Trie node ids stand for frames here: each is one frame under one caller, as a call tree's nodes are.
		StackTree tree = new StackTree();
		LongCounts keysAt = new LongCounts();
		// Kinds and bands: a placeholder holds at most one key of each.
		LongCounts groups = new LongCounts();
		counts.forEach((key, samples) -> {
			int stack = ProfileBucket.stackOf(key);
			tree.add(nodesTo(stack), samples);
			keysAt.add(stack, 1);
			groups.put(ProfileBucket.withStack(key, 0), 1);
		});
		TreeTrimmer.Nodes nodes = new TreeTrimmer.Nodes(tree.nodeCount());
		LongCounts totals = new LongCounts();
		tree.visit((path, depth, total, self) -> {
			nodes.add(depth, total, (int) keysAt.get(path[depth - 1], 0));
			totals.put(path[depth - 1], total);
		});
		// Stacks of no frame at all sit at the root, which is always kept.
		int budget = target - (int) keysAt.get(StackTrie.ROOT, 0);
		long threshold = TreeTrimmer.threshold(nodes, budget, groups.size());
		LongCounts trimmed = new LongCounts();
		counts.forEach((key, samples) -> {
			int stack = keptPart(ProfileBucket.stackOf(key), totals, threshold);
			trimmed.add(ProfileBucket.withStack(key, stack), samples);
		});
		return trimmed;
	}

	/** The trie nodes from the root's first callee down to {@code stack}. */
	private int[] nodesTo(int stack) {
		int depth = 0;
		for (int node = stack; node != StackTrie.ROOT; node = this.trie.parent(node)) {
			depth++;
		}
		int[] nodes = new int[depth];
		for (int node = stack; node != StackTrie.ROOT; node = this.trie.parent(node)) {
			nodes[--depth] = node;
		}
		return nodes;
	}

	/** {@code stack} when all of it is kept, otherwise the {@code [trimmed]} frame under its last kept node. */
	private int keptPart(int stack, LongCounts totals, long threshold) {
		int[] nodes = nodesTo(stack);
		for (int i = 0; i < nodes.length; i++) {
			if (totals.get(nodes[i], 0) < threshold) {
				return this.trie.trimmedUnder((i > 0) ? nodes[i - 1] : StackTrie.ROOT);
			}
		}
		return stack;
	}

}
