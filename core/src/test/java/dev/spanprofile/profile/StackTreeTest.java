package dev.spanprofile.profile;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StackTreeTest {

	/**
	 * Profiles are held per span and per name under a memory budget, so a one-column node
	 * must not grow with the columns a comparison needs: 48 bytes of fields (header 12,
	 * frame 4, three longs 24, children 4, count 4) and its slot in its caller's children
	 * array. Allocated bytes count those arrays as they double, garbage included.
	 */
	@Test
	void aOneColumnNodeCostsAboutFiftyBytes() {
		int callers = 1_000;
		int callees = 100;
		int[][] stacks = new int[callers * callees][];
		for (int i = 0; i < stacks.length; i++) {
			stacks[i] = new int[] { i / callees, callers + i % callees };
		}
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long before = threads.getCurrentThreadAllocatedBytes();
		StackTree tree = new StackTree();
		for (int[] stack : stacks) {
			tree.add(stack, 1);
		}
		long allocated = threads.getCurrentThreadAllocatedBytes() - before;
		double perNode = (double) allocated / tree.nodeCount();
		System.out.printf("StackTree: %d nodes, %.1f bytes allocated a node%n", tree.nodeCount(), perNode);
		assertThat(tree.nodeCount()).isEqualTo(callers + callers * callees);
		assertThat(perNode).isBetween(48.0, 64.0);
		// The second column of a comparison is paid by its own nodes: an array of three
		// longs each.
		before = threads.getCurrentThreadAllocatedBytes();
		StackTree both = StackTree.sideBySide(tree, tree);
		double perWideNode = (double) (threads.getCurrentThreadAllocatedBytes() - before) / both.nodeCount();
		System.out.printf("StackTree, two columns: %.1f bytes allocated a node%n", perWideNode);
		assertThat(perWideNode).isBetween(perNode + 40, perNode + 56);
	}

	@Test
	void sideBySideGivesEachTreeAColumnOfOneNodePerFrame() {
		StackTree slow = new StackTree();
		slow.add(new int[] { 1, 2 }, 5);
		slow.add(new int[] { 1, 3 }, 2);
		StackTree typical = new StackTree();
		typical.add(new int[] { 1, 3 }, 7);
		typical.add(new int[] { 4 }, 1);
		StackTree both = StackTree.sideBySide(slow, typical);
		assertThat(both.columns()).isEqualTo(2);
		assertThat(both.totalSamples(0)).isEqualTo(7);
		assertThat(both.totalSamples(1)).isEqualTo(8);
		assertThat(both.nodeCount()).isEqualTo(4);
		List<String> nodes = new ArrayList<>();
		both.visit((StackTree.NodeVisitor) (path, depth, node) -> nodes.add(path[depth - 1] + "@" + depth + " "
				+ node.total(0) + "/" + node.self(0) + " " + node.total(1) + "/" + node.self(1)));
		// The first tree's order, then frames only the second has.
		assertThat(nodes).containsExactly("1@1 7/0 7/0", "2@2 5/5 0/0", "3@2 2/2 7/7", "4@1 0/0 1/1");
		List<String> firstColumn = new ArrayList<>();
		both.visit((path, depth, total, self) -> firstColumn.add(path[depth - 1] + " " + total + "/" + self));
		assertThat(firstColumn).containsExactly("1 7/0", "2 5/5", "3 2/2", "4 0/0");
	}

	@Test
	void copyKeepsEveryColumn() {
		StackTree slow = new StackTree();
		slow.add(new int[] { 1 }, 3);
		StackTree typical = new StackTree();
		typical.add(new int[] { 1 }, 4);
		StackTree copy = StackTree.sideBySide(slow, typical).copy();
		assertThat(copy.columns()).isEqualTo(2);
		assertThat(copy.totalSamples(0)).isEqualTo(3);
		assertThat(copy.totalSamples(1)).isEqualTo(4);
		assertThat(copy.nodeCount()).isEqualTo(1);
	}

}
