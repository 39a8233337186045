package dev.spanprofile.profile;

import java.util.Arrays;

/**
 * Stacks merged into a call tree: each node is one frame under its caller, counting the samples that passed
 * through it ({@code total}) and those that ended in it ({@code self}). This is the shape every flame graph is drawn
 * from; identical stacks cost nothing extra however often they are sampled.
 * <p>
 * Not thread-safe; {@link SpanRecord} guards it.
 */
public final class StackTree {

	private final Node root = new Node(-1);

	private int nodeCount;

	/** Events added with a count of their own (lock waits); 0 for trees of other kinds. */
	private long events;

	/**
	 * Add one stack, root frame first, with {@code weight} samples.
	 */
	public void add(int[] rootFirstFrames, long weight) {
		add(rootFirstFrames, weight, 0);
	}

	/**
	 * Add one stack with {@code weight}, standing for {@code events} events: for kinds whose weight is a measure
	 * (nanoseconds waited), how many waits make it up.
	 */
	public void add(int[] rootFirstFrames, long weight, long events) {
		this.events += events;
		Node node = this.root;
		node.total += weight;
		for (int frame : rootFirstFrames) {
			Node child = node.child(frame);
			if (child == null) {
				child = node.addChild(frame);
				this.nodeCount++;
			}
			child.total += weight;
			node = child;
		}
		node.self += weight;
		node.selfEvents += events;
	}

	/** Add everything in {@code other} (used to build inclusive and merged views). */
	public void addAll(StackTree other) {
		this.events += other.events;
		merge(this.root, other.root);
	}

	private void merge(Node into, Node from) {
		into.total += from.total;
		into.self += from.self;
		into.selfEvents += from.selfEvents;
		for (int i = 0; i < from.childCount; i++) {
			Node source = from.children[i];
			Node target = into.child(source.frame);
			if (target == null) {
				target = into.addChild(source.frame);
				this.nodeCount++;
			}
			merge(target, source);
		}
	}

	public long totalSamples() {
		return this.root.total;
	}

	/** Events counted by {@link #add(int[], long, long)}: lock waits in a lock tree, 0 where not counted. */
	public long events() {
		return this.events;
	}

	public int nodeCount() {
		return this.nodeCount;
	}

	public StackTree copy() {
		StackTree copy = new StackTree();
		copy.addAll(this);
		return copy;
	}

	/** Walk the tree depth-first; frames are passed root first. */
	public void visit(Visitor visitor) {
		visit((EventsVisitor) (path, depth, total, self, selfEvents) -> visitor.node(path, depth, total, self));
	}

	/** Walk the tree depth-first, with the events that ended in each node. */
	public void visit(EventsVisitor visitor) {
		int[] path = new int[64];
		for (int i = 0; i < this.root.childCount; i++) {
			path = visit(this.root.children[i], path, 0, visitor);
		}
	}

	private int[] visit(Node node, int[] path, int depth, EventsVisitor visitor) {
		if (depth == path.length) {
			path = Arrays.copyOf(path, depth * 2);
		}
		path[depth] = node.frame;
		visitor.node(path, depth + 1, node.total, node.self, node.selfEvents);
		for (int i = 0; i < node.childCount; i++) {
			path = visit(node.children[i], path, depth + 1, visitor);
		}
		return path;
	}

	/** Receives each node of a {@link StackTree}. */
	@FunctionalInterface
	public interface Visitor {

		/**
		 * @param path frame ids from the root to this node; only the first {@code depth} entries are valid
		 * @param depth length of the path
		 * @param total samples through this node
		 * @param self samples ending in this node
		 */
		void node(int[] path, int depth, long total, long self);

	}

	/** Receives each node of a {@link StackTree} with its counted events. */
	@FunctionalInterface
	public interface EventsVisitor {

		/**
		 * @param path frame ids from the root to this node; only the first {@code depth} entries are valid
		 * @param depth length of the path
		 * @param total weight through this node
		 * @param self weight ending in this node
		 * @param selfEvents counted events ending in this node (see {@link StackTree#events()})
		 */
		void node(int[] path, int depth, long total, long self, long selfEvents);

	}

	private static final class Node {

		final int frame;

		long total;

		long self;

		long selfEvents;

		Node[] children;

		int childCount;

		Node(int frame) {
			this.frame = frame;
		}

		Node child(int frame) {
			for (int i = 0; i < this.childCount; i++) {
				if (this.children[i].frame == frame) {
					return this.children[i];
				}
			}
			return null;
		}

		Node addChild(int frame) {
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
