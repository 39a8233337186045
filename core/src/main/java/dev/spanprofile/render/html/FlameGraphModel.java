package dev.spanprofile.render.html;

import java.util.List;
import java.util.Map;

import dev.spanprofile.render.FrameCategory;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.profile.FrameTable;

/**
 * The data a flame graph page draws: a string table of names, each with its
 * {@link FrameCategory}, and the nodes in depth-first order as parallel arrays (name,
 * depth, samples). Children come heaviest first, so the big picture is on the left. The
 * page derives positions and self time from these.
 * <p>
 * Bounded: beyond {@code maxNodes} the lightest nodes are folded into one "small frames"
 * node per parent, so even a huge merged profile gives a page the browser can draw.
 */
public final class FlameGraphModel {

	static final String HIDDEN_NAME = "[small frames hidden]";

	private final List<String> names;

	private final int[] categories;

	private final int[] nameIndex;

	private final int[] depth;

	private final long[] total;

	private final Map<Integer, String> spanNodes;

	private final long hiddenNodes;

	/**
	 * Per node, the compared side's samples in a differential graph; {@code null}
	 * otherwise.
	 */
	private final long[] baseline;

	FlameGraphModel(List<String> names, int[] categories, int[] nameIndex, int[] depth, long[] total,
			Map<Integer, String> spanNodes, long hiddenNodes, long[] baseline) {
		this.names = names;
		this.categories = categories;
		this.nameIndex = nameIndex;
		this.depth = depth;
		this.total = total;
		this.spanNodes = spanNodes;
		this.hiddenNodes = hiddenNodes;
		this.baseline = baseline;
	}

	/** A model whose root is named {@code rootName} (a span or trace). */
	public static FlameGraphLayout builder(String rootName, FrameTable frames, FrameClassifier classifier) {
		return new FlameGraphLayout(rootName, frames, classifier);
	}

	public int nodeCount() {
		return this.total.length;
	}

	public long totalSamples() {
		return this.total[0];
	}

	/** Nodes folded away because the profile had more than the page's maximum. */
	public long hiddenNodes() {
		return this.hiddenNodes;
	}

	/** Name of node {@code node} in depth-first order (0 is the root). */
	public String name(int node) {
		return this.names.get(this.nameIndex[node]);
	}

	public int depth(int node) {
		return this.depth[node];
	}

	public long samples(int node) {
		return this.total[node];
	}

	public FrameCategory category(int node) {
		return FrameCategory.values()[this.categories[this.nameIndex[node]]];
	}

	/**
	 * The compared side's samples at {@code node} in a differential graph (0 otherwise).
	 */
	public long baseline(int node) {
		return (this.baseline != null) ? this.baseline[node] : 0;
	}

	/** Span ids of the span nodes (in a trace's graph), by node index. */
	public Map<Integer, String> spanNodes() {
		return this.spanNodes;
	}

	void writeJson(JsonText json) {
		json.key("names").raw('[');
		for (int i = 0; i < this.names.size(); i++) {
			if (i > 0) {
				json.raw(',');
			}
			json.string(this.names.get(i));
		}
		json.raw(']').raw(',').key("categories");
		writeInts(json, this.categories);
		json.raw(',');
		PageCategories.writeJson(json);
		json.raw(',').key("n");
		writeInts(json, this.nameIndex);
		json.raw(',').key("d");
		writeInts(json, this.depth);
		json.raw(',').key("v");
		writeLongs(json, this.total);
		json.raw(',').key("spans").raw('[');
		boolean first = true;
		for (Map.Entry<Integer, String> span : this.spanNodes.entrySet()) {
			if (!first) {
				json.raw(',');
			}
			first = false;
			json.raw('[').number(span.getKey()).raw(',').string(span.getValue()).raw(']');
		}
		json.raw(']').raw(',').key("hiddenNodes").number(this.hiddenNodes);
		if (this.baseline != null) {
			json.raw(',').key("b");
			writeLongs(json, this.baseline);
		}
	}

	private static void writeLongs(JsonText json, long[] values) {
		json.raw('[');
		for (int i = 0; i < values.length; i++) {
			if (i > 0) {
				json.raw(',');
			}
			json.number(values[i]);
		}
		json.raw(']');
	}

	private static void writeInts(JsonText json, int[] values) {
		json.raw('[');
		for (int i = 0; i < values.length; i++) {
			if (i > 0) {
				json.raw(',');
			}
			json.number(values[i]);
		}
		json.raw(']');
	}

}
