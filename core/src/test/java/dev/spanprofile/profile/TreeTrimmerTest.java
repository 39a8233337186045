package dev.spanprofile.profile;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TreeTrimmerTest {

	@Test
	void theThresholdIsTheLowestWeightWhoseKeptNodesAndPlaceholdersFit() {
		// A(10) calls A1(6), A2(3), A3(1); B(2) calls B1(2).
		TreeTrimmer.Nodes nodes = new TreeTrimmer.Nodes(0);
		int a = nodes.add(-1, 10);
		nodes.add(a, 6);
		nodes.add(a, 3);
		nodes.add(a, 1);
		nodes.add(nodes.add(-1, 2), 2);
		// 6: A and A1 kept, A2 and A3 in one placeholder under A, B in one under the
		// root.
		assertThat(TreeTrimmer.threshold(nodes, 4)).isEqualTo(6);
		// 3: A, A1, A2, A3's placeholder and the root's holding B.
		assertThat(TreeTrimmer.threshold(nodes, 5)).isEqualTo(3);
		assertThat(TreeTrimmer.threshold(nodes, 6)).isEqualTo(1);
		assertThat(TreeTrimmer.threshold(nodes, 3)).isEqualTo(10);
		// A alone with its placeholder and the root's is 3: only folding everything fits.
		assertThat(TreeTrimmer.threshold(nodes, 2)).isEqualTo(Long.MAX_VALUE);
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
		trimmed
			.visit((path, depth, total, self) -> nodes.add(depth + " " + frames.name(path[depth - 1]) + " " + total));
		assertThat(nodes).containsExactly("1 A 10", "2 A 6", "2 [left out] 4", "1 [left out] 2");
	}

}
