package dev.spanprofile.aggregate;

import java.util.Random;

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

	/**
	 * A rebuild resolves each node of the old trie once, remembering it; it must give
	 * every stack the id interning its whole path would, also where the new trie is too
	 * small and stacks are cut.
	 */
	@Test
	void rebuildingNodeByNodeGivesTheStacksInterningTheirPathsGives() {
		Random random = new Random(7);
		StackTrie old = new StackTrie(TRIMMED, 100_000);
		int[] stacks = new int[3000];
		for (int s = 0; s < stacks.length; s++) {
			// Shared callers, then a few frames that part ways.
			int depth = 3 + random.nextInt(12);
			int[] path = new int[depth];
			for (int d = 0; d < depth; d++) {
				path[d] = (d < 2) ? d : d * 10 + random.nextInt(d < 6 ? 2 : 5);
			}
			stacks[s] = old.intern(path, depth);
		}
		int cutInLarger = 0;
		for (int capacity : new int[] { 100_000, 2000, 300, 64 }) {
			StackTrie byPath = new StackTrie(TRIMMED, capacity);
			StackTrie byNode = new StackTrie(TRIMMED, capacity);
			int[] mapped = new int[old.size()];
			int cut = 0;
			for (int stack : stacks) {
				int[] path = old.path(stack);
				int expected = byPath.intern(path, path.length);
				int rebuilt = byNode.intern(old, stack, mapped);
				assertThat(byNode.path(rebuilt)).as("stack %s in a trie of %d nodes", path, capacity)
					.containsExactly(byPath.path(expected));
				if (byPath.frame(expected) == TRIMMED) {
					cut++;
				}
			}
			assertThat(byNode.size()).isEqualTo(byPath.size());
			if (capacity < old.size()) {
				// Fewer nodes, more stacks cut: more than in the larger trie before, and
				// never all of them (the first stacks always find room).
				assertThat(cut).as("stacks cut in a trie of %d nodes", capacity)
					.isBetween(cutInLarger + 1, stacks.length - 1);
			}
			else {
				assertThat(cut).isZero();
			}
			cutInLarger = cut;
		}
	}

}
