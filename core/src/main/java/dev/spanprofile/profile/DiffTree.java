package dev.spanprofile.profile;

import java.util.Arrays;


/**
 * Two call trees merged frame by frame: each node counts the samples of one side ({@code value}) and of the other
 * ({@code baseline}), inclusive and self, so a frame present on one side only has zero on the other.
 */
public final class DiffTree {

	private final Node root = new Node(-1);

	private DiffTree() {
	}

	/** {@code value} is the side being examined, {@code baseline} what it is compared with. */
	public static DiffTree of(StackTree value, StackTree baseline) {
		DiffTree tree = new DiffTree();
		value.visit((path, depth, total, self) -> tree.node(path, depth).add(0, total, self));
		baseline.visit((path, depth, total, self) -> tree.node(path, depth).add(1, total, self));
		tree.root.total[0] = value.totalSamples();
		tree.root.total[1] = baseline.totalSamples();
		return tree;
	}

	private Node node(int[] path, int depth) {
		Node node = this.root;
		for (int i = 0; i < depth; i++) {
			node = node.child(path[i]);
		}
		return node;
	}

	public long totalValue() {
		return this.root.total[0];
	}

	public long totalBaseline() {
		return this.root.total[1];
	}

	/** Walk depth-first; frames are passed root first. */
	public void visit(Visitor visitor) {
		int[] path = new int[64];
		for (int i = 0; i < this.root.childCount; i++) {
			path = visit(this.root.children[i], path, 0, visitor);
		}
	}

	private int[] visit(Node node, int[] path, int depth, Visitor visitor) {
		if (depth == path.length) {
			path = Arrays.copyOf(path, depth * 2);
		}
		path[depth] = node.frame;
		visitor.node(path, depth + 1, node.total[0], node.self[0], node.total[1], node.self[1]);
		for (int i = 0; i < node.childCount; i++) {
			path = visit(node.children[i], path, depth + 1, visitor);
		}
		return path;
	}

	/** Receives each node of a {@link DiffTree}. */
	@FunctionalInterface
	public interface Visitor {

		/**
		 * @param path frame ids from the root to this node; only the first {@code depth} entries are valid
		 * @param depth length of the path
		 * @param value samples of the examined side through this node
		 * @param selfValue of those, samples ending here
		 * @param baseline samples of the baseline side through this node
		 * @param selfBaseline of those, samples ending here
		 */
		void node(int[] path, int depth, long value, long selfValue, long baseline, long selfBaseline);

	}

	private static final class Node {

		final int frame;

		final long[] total = new long[2];

		final long[] self = new long[2];

		Node[] children;

		int childCount;

		Node(int frame) {
			this.frame = frame;
		}

		void add(int side, long total, long self) {
			this.total[side] += total;
			this.self[side] += self;
		}

		Node child(int frame) {
			for (int i = 0; i < this.childCount; i++) {
				if (this.children[i].frame == frame) {
					return this.children[i];
				}
			}
			if (this.children == null) {
				this.children = new Node[2];
			}
			else if (this.childCount == this.children.length) {
				this.children = Arrays.copyOf(this.children, this.childCount * 2);
			}
			Node child = new Node(frame);
			this.children[this.childCount++] = child;
			return child;
		}

	}

}
