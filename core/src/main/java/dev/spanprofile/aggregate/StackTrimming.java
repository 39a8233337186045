package dev.spanprofile.aggregate;

import java.util.Arrays;

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
		// Per trie node on the bucket's stacks: its samples, then its index among the nodes.
		LongCounts totals = new LongCounts();
		LongCounts keysAt = new LongCounts();
		// Kinds and bands: a placeholder holds at most one key of each.
		LongCounts groups = new LongCounts();
		counts.forEach((key, samples) -> {
			int stack = ProfileBucket.stackOf(key);
			keysAt.add(stack, 1);
			groups.put(ProfileBucket.withStack(key, 0), 1);
			for (int node = stack; node != StackTrie.ROOT; node = this.trie.parent(node)) {
				totals.add(node, samples);
			}
		});
		// A node's id is above its caller's (the trie adds callers first), so ascending ids list callers first.
		int[] ids = new int[totals.size()];
		int[] next = { 0 };
		totals.forEach((id, samples) -> ids[next[0]++] = (int) id);
		Arrays.sort(ids);
		LongCounts indexOf = new LongCounts();
		TreeTrimmer.Nodes nodes = new TreeTrimmer.Nodes(ids.length);
		for (int id : ids) {
			int caller = this.trie.parent(id);
			int parent = (caller == StackTrie.ROOT) ? -1 : (int) indexOf.get(caller, -1);
			indexOf.put(id, nodes.add(parent, totals.get(id, 0), (int) keysAt.get(id, 0)));
		}
		// Stacks of no frame at all sit at the root, which is always kept.
		int budget = target - (int) keysAt.get(StackTrie.ROOT, 0);
		boolean[] kept = nodes.kept(TreeTrimmer.threshold(nodes, budget, groups.size()));
		LongCounts trimmed = new LongCounts();
		counts.forEach((key, samples) -> {
			int stack = keptPart(ProfileBucket.stackOf(key), indexOf, kept);
			trimmed.add(ProfileBucket.withStack(key, stack), samples);
		});
		return trimmed;
	}

	/** {@code stack} when all of it is kept, otherwise the {@code [trimmed]} frame under its last kept node. */
	private int keptPart(int stack, LongCounts indexOf, boolean[] kept) {
		int topmostFolded = -1;
		for (int node = stack; node != StackTrie.ROOT; node = this.trie.parent(node)) {
			if (!kept[(int) indexOf.get(node, -1)]) {
				topmostFolded = node;
			}
		}
		return (topmostFolded < 0) ? stack : this.trie.trimmedUnder(this.trie.parent(topmostFolded));
	}

}
