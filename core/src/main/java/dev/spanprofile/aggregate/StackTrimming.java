package dev.spanprofile.aggregate;

import java.util.Arrays;

/**
 * Bounds the distinct stacks one profile bucket counts: the thinnest stacks lose their
 * last frame to a {@code [trimmed]} frame under their caller, where siblings merge; pass
 * after pass, moving up a frame each time, until the bucket fits. Every sample still
 * counts, and at every frame that was kept on its way.
 * <p>
 * Not {@link dev.spanprofile.profile.TreeTrimmer}'s rule, which folds whole branches: its
 * budget is nodes, this one distinct stacks per kind and latency band, and a thin stack
 * climbs past a caller that other stacks keep until it merges. Under the tree rule a
 * bucket's many distinct thin tails (each one key) only merge once whole branches fold:
 * trimming a synthetic bucket of 3,000 keys to 1,500 puts 38-60 % of its samples under
 * {@code [trimmed]}, against 1.5 % here.
 */
final class StackTrimming {

	private final StackTrie trie;

	StackTrimming(StackTrie trie) {
		this.trie = trie;
	}

	/**
	 * Trim {@code bucket} when it counts more than {@code maxStacks} keys: to three
	 * quarters of them, not to the budget, so that a busy bucket is not trimmed on every
	 * span.
	 * @return whether it was trimmed, leaving stacks in the trie that it no longer counts
	 */
	boolean bound(ProfileBucket bucket, int maxStacks) {
		if (bucket.counts().size() <= maxStacks) {
			return false;
		}
		bucket.replaceCounts(trim(bucket.counts(), maxStacks * 3 / 4));
		return true;
	}

	/**
	 * {@code counts} with at most {@code target} keys (or as few as trimming to the root
	 * allows).
	 */
	LongCounts trim(LongCounts counts, int target) {
		LongCounts current = counts;
		while (current.size() > target) {
			long[] values = new long[current.size()];
			int[] next = { 0 };
			current.forEach((key, samples) -> values[next[0]++] = samples);
			Arrays.sort(values);
			// Thin: at or below the count that would leave `target` stacks if all thinner
			// ones merged away.
			long thin = values[values.length - target - 1];
			LongCounts trimmed = new LongCounts();
			boolean[] moved = { false };
			current.forEach((key, samples) -> {
				int stack = ProfileBucket.stackOf(key);
				int up = (samples <= thin) ? up(stack) : stack;
				moved[0] |= up != stack;
				trimmed.add(ProfileBucket.withStack(key, up), samples);
			});
			current = trimmed;
			if (!moved[0]) {
				break;
			}
		}
		return current;
	}

	/**
	 * The {@code [trimmed]} frame under the caller of {@code stack}'s last real frame;
	 * the root stays.
	 */
	private int up(int stack) {
		int base = (this.trie.frame(stack) == this.trie.trimmedFrame()) ? this.trie.parent(stack) : stack;
		if (base == StackTrie.ROOT) {
			return stack;
		}
		return this.trie.trimmedUnder(this.trie.parent(base));
	}

}
