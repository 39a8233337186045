package dev.spanprofile.aggregate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The trie's own bound: sized for a number of bytes, it never holds more, placeholders
 * included, however many distinct stacks it is offered.
 */
class StackTrieTest {

	private static final int TRIMMED = 999_999;

	@Test
	void aFullTrieStaysWithinTheBytesItWasSizedFor() {
		for (long budget : new long[] { 64 * 1024, 1024 * 1024, 1536 * 1024, 5_000_000 }) {
			StackTrie trie = new StackTrie(TRIMMED, StackTrie.capacityFor(budget));
			int trimmed = 0;
			for (int stack = 0; stack < trie.capacity(); stack++) {
				// Three frames of its own under one of a few callers: most stacks need
				// new nodes.
				int[] path = { stack % 7, 1000 + stack, 2_000_000 + stack, 3_000_000 + stack };
				int id = trie.intern(path, path.length);
				if (trie.frame(id) == TRIMMED) {
					trimmed++;
					int[] kept = trie.path(id);
					assertThat(kept.length).isBetween(1, path.length);
				}
				else {
					assertThat(trie.path(id)).containsExactly(path);
				}
			}
			assertThat(trie.size()).as("nodes of a trie for %d bytes", budget).isEqualTo(trie.capacity());
			assertThat(trimmed).as("stacks that found no room").isPositive();
			assertThat(trie.bytes()).as("bytes of a full trie for %d bytes", budget)
				.isLessThanOrEqualTo(budget)
				.isGreaterThan(budget / 2);
		}
	}

	@Test
	void aFullTrieTrimsUnderTheDeepestFrameItKnows() {
		StackTrie trie = new StackTrie(TRIMMED, 64);
		int[] known = { 1, 2, 3 };
		trie.intern(known, known.length);
		for (int i = 0; trie.size() < trie.capacity(); i++) {
			trie.intern(new int[] { 100 + i }, 1);
		}
		int id = trie.intern(new int[] { 1, 2, 3, 4, 5 }, 5);
		assertThat(trie.path(id)).as("placeholder under the root's, no room for one under a.3")
			.containsExactly(TRIMMED);
		assertThat(trie.size()).isEqualTo(trie.capacity());
	}

}
