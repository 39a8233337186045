package dev.spanprofile.profile;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TreeTrimmerTest {

	@Test
	void theThresholdIsTheLowestWeightWhoseKeptNodesAndPlaceholdersFit() {
		// A(10) calls A1(6), A2(3), A3(1); B(2) calls B1(2).
		TreeTrimmer.Nodes nodes = nodes(1, 1, 1, 1, 1, 1);
		// 6: A and A1 kept, A2 and A3 in one placeholder under A, B in one under the root.
		assertThat(TreeTrimmer.threshold(nodes, 4, 1)).isEqualTo(6);
		// 3: A, A1, A2, A3's placeholder and the root's holding B.
		assertThat(TreeTrimmer.threshold(nodes, 5, 1)).isEqualTo(3);
		assertThat(TreeTrimmer.threshold(nodes, 6, 1)).isEqualTo(1);
		assertThat(TreeTrimmer.threshold(nodes, 3, 1)).isEqualTo(10);
		// A alone with its placeholder and the root's is 3: only folding everything fits.
		assertThat(TreeTrimmer.threshold(nodes, 2, 1)).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void aPlaceholderCostsWhatIsFoldedIntoItUpToItsCap() {
		// Stacks ending in A1 (two keys), A2, A3 and B1; none in A or B.
		TreeTrimmer.Nodes nodes = nodes(0, 2, 1, 1, 0, 1);
		// 6: A1's 2, A's placeholder holding A2 and A3 (capped at 1), the root's holding B1.
		assertThat(TreeTrimmer.threshold(nodes, 4, 1)).isEqualTo(6);
		// Capped at 2, A's placeholder costs 2 at 6: only A kept (its two placeholders 2 + 1) fits 4.
		assertThat(TreeTrimmer.threshold(nodes, 4, 2)).isEqualTo(10);
		assertThat(TreeTrimmer.threshold(nodes, 5, 2)).isEqualTo(1);
	}

	@Test
	void trimmingFoldsThinBranchesUnderTheirCallerKeepingEveryTotal() {
		FrameTable frames = new FrameTable();
		TreeTrimmer trimmer = new TreeTrimmer(frames, "[left out]");
		int a = frames.intern("A", FrameKind.JAVA);
		int b = frames.intern("B", FrameKind.JAVA);
		StackTree tree = new StackTree();
		tree.add(new int[] { a, a }, 6);
		tree.add(new int[] { a, b }, 3);
		tree.add(new int[] { a, b, a }, 1);
		tree.add(new int[] { b, b }, 2);
		assertThat(trimmer.trim(tree, 6, 4)).isSameAs(tree);
		StackTree trimmed = trimmer.trim(tree, 5, 4);
		assertThat(trimmed.nodeCount()).isEqualTo(4);
		assertThat(trimmed.totalSamples()).isEqualTo(12);
		List<String> nodes = new ArrayList<>();
		trimmed.visit((path, depth, total, self) -> nodes
			.add(depth + " " + frames.name(path[depth - 1]) + " " + total));
		assertThat(nodes).containsExactly("1 A 10", "2 A 6", "2 [left out] 4", "1 [left out] 2");
	}

	/** The tree of the tests above, callers first, with the given costs. */
	private static TreeTrimmer.Nodes nodes(int... costs) {
		TreeTrimmer.Nodes nodes = new TreeTrimmer.Nodes(0);
		int[] parents = { -1, 0, 0, 0, -1, 4 };
		long[] totals = { 10, 6, 3, 1, 2, 2 };
		for (int i = 0; i < parents.length; i++) {
			assertThat(nodes.add(parents[i], totals[i], costs[i])).isEqualTo(i);
		}
		return nodes;
	}

}
