package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A span's samples kept as distinct stacks must give the same flame graph as adding every
 * sample to a call tree, and charge exactly the bytes it reports holding.
 */
class SampledStacksTest {

	@Test
	void sameTreeAsAddingEverySampleToATree() {
		Random random = new Random(42);
		for (int distinct : new int[] { 1, 7, 8, 9, 100, 3000 }) {
			List<int[]> pool = new ArrayList<>();
			for (int i = 0; i < distinct; i++) {
				int[] stack = new int[1 + random.nextInt(150)];
				for (int f = 0; f < stack.length; f++) {
					stack[f] = random.nextInt(40);
				}
				pool.add(stack);
			}
			SampledStacks stacks = new SampledStacks();
			StackTree expected = new StackTree();
			long charged = 0;
			long weights = 0;
			for (int i = 0; i < distinct * 5; i++) {
				int[] stack = pool.get(random.nextInt(distinct));
				long weight = 1 + random.nextInt(3);
				// A reused caller array must not change what was stored.
				int[] callerArray = stack.clone();
				charged += stacks.add(callerArray, weight);
				java.util.Arrays.fill(callerArray, -1);
				expected.add(stack, weight);
				weights += weight;
			}
			assertThat(stacks.totalWeight()).isEqualTo(weights);
			assertThat(stacks.bytes()).as("bytes charged for %d distinct stacks", distinct).isEqualTo(charged);
			assertThat(collapsed(stacks.toTree())).isEqualTo(collapsed(expected));
		}
	}

	@Test
	void aStackSeenAgainCostsNothing() {
		SampledStacks stacks = new SampledStacks();
		int[] deep = new int[150];
		long first = stacks.add(deep, 1);
		assertThat(first).isEqualTo(SampledStacks.bytesOf(150));
		for (int i = 0; i < 1000; i++) {
			assertThat(stacks.add(deep.clone(), 1)).isZero();
		}
		assertThat(stacks.bytes()).isEqualTo(first);
		assertThat(stacks.totalWeight()).isEqualTo(1001);
	}

	private static List<String> collapsed(StackTree tree) {
		List<String> lines = new ArrayList<>();
		tree.visit((frames, depth, total, self) -> {
			if (self > 0) {
				lines.add(java.util.Arrays.toString(java.util.Arrays.copyOf(frames, depth)) + " " + self);
			}
		});
		lines.sort(null);
		return lines;
	}

}
