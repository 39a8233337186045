package dev.spanprofile.profile;

import java.util.Arrays;

/**
 * Stacks merged into a call tree: each node is one frame under its caller, counting per
 * value column the samples that passed through it ({@code total}) and those that ended in
 * it ({@code self}). A profile has one column; a comparison has one per side, so that
 * both sides share one node per frame and a frame present on one side only has zero on
 * the other. This is the shape every flame graph is drawn from; identical stacks cost
 * nothing extra however often they are sampled.
 * <p>
 * A one-column node holds its values in fields of its own: profiles are kept per span and
 * per name under a memory budget, and the extra columns of a comparison must not cost
 * them a byte.
 * <p>
 * Not thread-safe; its owner guards it.
 */
public final class StackTree {

	private final int columns;

	private final TreeNode root;

	private int nodeCount;

	/**
	 * Events added with a count of their own (lock waits); 0 for trees of other kinds.
	 */
	private long events;

	/** A profile: one value column. */
	public StackTree() {
		this(1);
	}

	private StackTree(int columns) {
		this.columns = columns;
		this.root = TreeNode.create(-1, columns);
	}

	/**
	 * The trees side by side: column {@code i} holds {@code trees[i]}'s samples, such as
	 * a comparison's examined side and its baseline.
	 */
	public static StackTree sideBySide(StackTree... trees) {
		if (trees.length == 0) {
			throw new IllegalArgumentException("No tree to put side by side");
		}
		StackTree combined = new StackTree(trees.length);
		for (int column = 0; column < trees.length; column++) {
			combined.events += trees[column].events;
			combined.merge(combined.root, trees[column].root, column, 0);
		}
		return combined;
	}

	/**
	 * Add one stack, root frame first, with {@code weight} samples in the first column.
	 */
	public void add(int[] rootFirstFrames, long weight) {
		add(rootFirstFrames, weight, 0);
	}

	/**
	 * Add one stack with {@code weight}, standing for {@code events} events: for kinds
	 * whose weight is a measure (nanoseconds waited), how many waits make it up.
	 */
	public void add(int[] rootFirstFrames, long weight, long events) {
		this.events += events;
		TreeNode node = this.root;
		node.total += weight;
		for (int frame : rootFirstFrames) {
			node = childOf(node, frame);
			node.total += weight;
		}
		node.self += weight;
		node.selfEvents += events;
	}

	/**
	 * Add everything in {@code other}, column by column (used to build inclusive and
	 * merged views).
	 */
	public void addAll(StackTree other) {
		if (other.columns != this.columns) {
			throw new IllegalArgumentException(other.columns + " columns added to " + this.columns);
		}
		this.events += other.events;
		for (int column = 0; column < this.columns; column++) {
			merge(this.root, other.root, column, column);
		}
	}

	private void merge(TreeNode into, TreeNode from, int intoColumn, int fromColumn) {
		into.add(intoColumn, from.total(fromColumn), from.self(fromColumn), from.selfEvents(fromColumn));
		for (int i = 0; i < from.childCount; i++) {
			TreeNode source = from.children[i];
			merge(childOf(into, source.frame), source, intoColumn, fromColumn);
		}
	}

	private TreeNode childOf(TreeNode node, int frame) {
		TreeNode child = node.child(frame);
		if (child == null) {
			child = node.addChild(frame, this.columns);
			this.nodeCount++;
		}
		return child;
	}

	public int columns() {
		return this.columns;
	}

	/** Samples of the first column. */
	public long totalSamples() {
		return this.root.total;
	}

	public long totalSamples(int column) {
		return this.root.total(column);
	}

	/**
	 * Events counted by {@link #add(int[], long, long)}: lock waits in a lock tree, 0
	 * where not counted.
	 */
	public long events() {
		return this.events;
	}

	public int nodeCount() {
		return this.nodeCount;
	}

	public StackTree copy() {
		StackTree copy = new StackTree(this.columns);
		copy.addAll(this);
		return copy;
	}

	/** Walk the first column depth-first; frames are passed root first. */
	public void visit(Visitor visitor) {
		visit((NodeVisitor) (path, depth, node) -> visitor.node(path, depth, node.total, node.self));
	}

	/** Walk the first column depth-first, with the events that ended in each node. */
	public void visit(EventsVisitor visitor) {
		visit((NodeVisitor) (path, depth, node) -> visitor.node(path, depth, node.total, node.self, node.selfEvents));
	}

	/**
	 * Walk the tree depth-first, every column of each node; frames are passed root first.
	 */
	public void visit(NodeVisitor visitor) {
		int[] path = new int[64];
		for (int i = 0; i < this.root.childCount; i++) {
			path = visit(this.root.children[i], path, 0, visitor);
		}
	}

	private int[] visit(TreeNode node, int[] path, int depth, NodeVisitor visitor) {
		if (depth == path.length) {
			path = Arrays.copyOf(path, depth * 2);
		}
		path[depth] = node.frame;
		visitor.node(path, depth + 1, node);
		for (int i = 0; i < node.childCount; i++) {
			path = visit(node.children[i], path, depth + 1, visitor);
		}
		return path;
	}

	/** Receives each node of a {@link StackTree}'s first column. */
	@FunctionalInterface
	public interface Visitor {

		/**
		 * @param path frame ids from the root to this node; only the first {@code depth}
		 * entries are valid
		 * @param depth length of the path
		 * @param total samples through this node
		 * @param self samples ending in this node
		 */
		void node(int[] path, int depth, long total, long self);

	}

	/**
	 * Receives each node of a {@link StackTree}'s first column with its counted events.
	 */
	@FunctionalInterface
	public interface EventsVisitor {

		/**
		 * @param path frame ids from the root to this node; only the first {@code depth}
		 * entries are valid
		 * @param depth length of the path
		 * @param total weight through this node
		 * @param self weight ending in this node
		 * @param selfEvents counted events ending in this node (see
		 * {@link StackTree#events()})
		 */
		void node(int[] path, int depth, long total, long self, long selfEvents);

	}

	/** Receives each node of a {@link StackTree} with all its columns. */
	@FunctionalInterface
	public interface NodeVisitor {

		/**
		 * @param path frame ids from the root to this node; only the first {@code depth}
		 * entries are valid
		 * @param depth length of the path
		 * @param node the node's values, to be read during the call only
		 */
		void node(int[] path, int depth, TreeNode node);

	}

}
