package dev.spanprofile.render.html;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.TreeTrimmer;
import dev.spanprofile.render.FrameCategory;
import dev.spanprofile.render.FrameClassifier;

/**
 * Lays stack trees out as a {@link FlameGraphModel}: collects them, each optionally under
 * a span node or beside a compared side, merges them into one tree of nodes, folds the
 * lightest beyond the page's maximum into one "small frames" node per parent (by the
 * {@link TreeTrimmer}'s rule), and writes the nodes depth first, heaviest child first.
 */
public final class FlameGraphLayout {

	/**
	 * Enough for any single request; a page of this size still loads in about a second.
	 */
	static final int DEFAULT_MAX_NODES = 200_000;

	private final FrameTable frames;

	private final FrameClassifier classifier;

	private final Map<String, Integer> nameIds = new HashMap<>();

	private final List<String> names = new ArrayList<>();

	private final List<Integer> categories = new ArrayList<>();

	private final Map<Integer, Integer> frameNameIds = new HashMap<>();

	private final Node root;

	private int maxNodes = DEFAULT_MAX_NODES;

	private boolean comparison;

	private int nodeCount = 1;

	FlameGraphLayout(String rootName, FrameTable frames, FrameClassifier classifier) {
		this.frames = frames;
		this.classifier = classifier;
		this.root = new Node(nameId(rootName, FrameCategory.OTHER), null);
	}

	public FlameGraphLayout maxNodes(int maxNodes) {
		if (maxNodes < 2) {
			throw new IllegalArgumentException("maxNodes must be at least 2, was " + maxNodes);
		}
		this.maxNodes = maxNodes;
		return this;
	}

	/** Add a tree's stacks directly under the root. */
	public FlameGraphLayout add(StackTree tree) {
		addUnder(this.root, tree);
		return this;
	}

	/**
	 * Add a comparison, a tree of two columns: nodes are sized by the examined side (the
	 * first) and carry the compared side's samples (the second); frames only the compared
	 * side has get zero width.
	 */
	public FlameGraphLayout addComparison(StackTree tree) {
		this.comparison = true;
		this.root.total += tree.totalSamples(0);
		this.root.baseline += tree.totalSamples(1);
		List<Node> path = new ArrayList<>();
		path.add(this.root);
		tree.visit((StackTree.NodeVisitor) (frames, depth, values) -> {
			Node under = path.get(depth - 1);
			Node node = under.child(frameNameId(frames[depth - 1]));
			if (node == null) {
				node = new Node(frameNameId(frames[depth - 1]), null);
				under.children.add(node);
				this.nodeCount++;
			}
			node.total += values.total(0);
			node.baseline += values.total(1);
			if (path.size() > depth) {
				path.set(depth, node);
			}
			else {
				path.add(node);
			}
		});
		return this;
	}

	/** Add a span's stacks under a node that stands for the span. */
	public FlameGraphLayout addSpan(String spanName, String spanId, StackTree tree) {
		Node span = new Node(nameId(spanName, FrameCategory.SPAN), spanId);
		this.root.children.add(span);
		this.nodeCount++;
		span.total = tree.totalSamples();
		this.root.total += span.total;
		addUnder(span, tree);
		return this;
	}

	private void addUnder(Node parent, StackTree tree) {
		if (parent == this.root) {
			this.root.total += tree.totalSamples();
		}
		List<Node> path = new ArrayList<>();
		path.add(parent);
		tree.visit((frames, depth, total, self) -> {
			Node under = path.get(depth - 1);
			Node node = under.child(frameNameId(frames[depth - 1]));
			if (node == null) {
				node = new Node(frameNameId(frames[depth - 1]), null);
				under.children.add(node);
				this.nodeCount++;
			}
			node.total += total;
			if (path.size() > depth) {
				path.set(depth, node);
			}
			else {
				path.add(node);
			}
		});
	}

	private int frameNameId(int frame) {
		return this.frameNameIds.computeIfAbsent(frame, (id) -> {
			String name = this.frames.name(id);
			return nameId(name, this.classifier.classify(name, this.frames.kind(id)));
		});
	}

	private int nameId(String name, FrameCategory category) {
		return this.nameIds.computeIfAbsent(category.ordinal() + ":" + name, (key) -> {
			this.names.add(name);
			this.categories.add(category.ordinal());
			return this.names.size() - 1;
		});
	}

	public FlameGraphModel build() {
		long threshold = (this.nodeCount > this.maxNodes) ? foldThreshold() : 0;
		int hiddenName = (threshold > 0) ? nameId(FlameGraphModel.HIDDEN_NAME, FrameCategory.OTHER) : -1;
		int capacity = Math.min(this.nodeCount, this.maxNodes + this.maxNodes / 2) + 1;
		int[] nameIndex = new int[capacity];
		int[] depth = new int[capacity];
		long[] total = new long[capacity];
		long[] baseline = this.comparison ? new long[capacity] : null;
		Map<Integer, String> spanNodes = new LinkedHashMap<>();
		Comparator<Node> heaviestFirst = Comparator.comparingLong((Node node) -> node.total)
			.reversed()
			.thenComparing((node) -> this.names.get(node.name));
		// Depth-first without recursion: stacks can be thousands of frames deep.
		List<Node> stack = new ArrayList<>();
		List<Integer> depths = new ArrayList<>();
		stack.add(this.root);
		depths.add(0);
		int count = 0;
		long hidden = 0;
		while (!stack.isEmpty()) {
			Node node = stack.remove(stack.size() - 1);
			int level = depths.remove(depths.size() - 1);
			if (count == nameIndex.length) {
				nameIndex = Arrays.copyOf(nameIndex, count * 2);
				depth = Arrays.copyOf(depth, count * 2);
				total = Arrays.copyOf(total, count * 2);
				baseline = (baseline != null) ? Arrays.copyOf(baseline, count * 2) : null;
			}
			nameIndex[count] = node.name;
			depth[count] = level;
			total[count] = node.total;
			if (baseline != null) {
				baseline[count] = node.baseline;
			}
			if (node.spanId != null) {
				spanNodes.put(count, node.spanId);
			}
			count++;
			List<Node> kept = new ArrayList<>(node.children.size());
			long folded = 0;
			long foldedBaseline = 0;
			for (Node child : node.children) {
				// A comparison keeps frames only the compared side has (zero width here)
				// out of the page.
				if (child.total >= threshold && child.total > 0) {
					kept.add(child);
				}
				else {
					folded += child.total;
					foldedBaseline += child.baseline;
					hidden += (child.total > 0) ? child.subtreeSize() : 0;
				}
			}
			if (folded > 0) {
				Node small = new Node(hiddenName, null);
				small.total = folded;
				small.baseline = foldedBaseline;
				kept.add(small);
			}
			kept.sort(heaviestFirst);
			for (int i = kept.size() - 1; i >= 0; i--) {
				stack.add(kept.get(i));
				depths.add(level + 1);
			}
		}
		int[] categories = this.categories.stream().mapToInt(Integer::intValue).toArray();
		return new FlameGraphModel(List.copyOf(this.names), categories, Arrays.copyOf(nameIndex, count),
				Arrays.copyOf(depth, count), Arrays.copyOf(total, count), spanNodes, hidden,
				(baseline != null) ? Arrays.copyOf(baseline, count) : null);
	}

	/**
	 * The sample count a node needs to be kept so that the page has at most
	 * {@code maxNodes}, its root and one "small frames" node per caller that loses any
	 * included: the {@link TreeTrimmer}'s rule.
	 */
	private long foldThreshold() {
		TreeTrimmer.Nodes nodes = new TreeTrimmer.Nodes(this.nodeCount);
		// Without recursion: stacks can be thousands of frames deep.
		List<Node> stack = new ArrayList<>(this.root.children);
		List<Integer> parents = new ArrayList<>(Collections.nCopies(stack.size(), -1));
		while (!stack.isEmpty()) {
			Node node = stack.remove(stack.size() - 1);
			int index = nodes.add(parents.remove(parents.size() - 1), node.total);
			stack.addAll(node.children);
			parents.addAll(Collections.nCopies(node.children.size(), index));
		}
		return TreeTrimmer.threshold(nodes, this.maxNodes - 1);
	}

	private static final class Node {

		final int name;

		final String spanId;

		final List<Node> children = new ArrayList<>(2);

		long total;

		long baseline;

		Node(int name, String spanId) {
			this.name = name;
			this.spanId = spanId;
		}

		Node child(int name) {
			for (Node child : this.children) {
				if (child.name == name && child.spanId == null) {
					return child;
				}
			}
			return null;
		}

		long subtreeSize() {
			long size = 0;
			List<Node> stack = new ArrayList<>();
			stack.add(this);
			while (!stack.isEmpty()) {
				Node node = stack.remove(stack.size() - 1);
				size++;
				stack.addAll(node.children);
			}
			return size;
		}

	}

}
