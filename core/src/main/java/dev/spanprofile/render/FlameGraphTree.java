package dev.spanprofile.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * A flame graph as nested maps, ready for any JSON serialiser (the actuator's, here) and
 * for d3-flame-graph-style viewers: {@code {name, value, self, kind, children}} for a
 * profile; a comparison adds its second column as {@code baseline} and
 * {@code selfBaseline}, {@code value} being the examined (slow) side.
 */
public final class FlameGraphTree {

	/**
	 * Per column, the keys of its weight through a node and of its weight ending there.
	 */
	private static final String[][] COLUMN_KEYS = { { "value", "self" }, { "baseline", "selfBaseline" } };

	private FlameGraphTree() {
	}

	/** The tree under a root node named {@code rootName}. */
	public static Map<String, Object> render(String rootName, StackTree tree, FrameTable frames) {
		int columns = tree.columns();
		if (columns > COLUMN_KEYS.length) {
			throw new IllegalArgumentException("No names for " + columns + " columns");
		}
		long[] rootTotals = new long[columns];
		for (int column = 0; column < columns; column++) {
			rootTotals[column] = tree.totalSamples(column);
		}
		Map<String, Object> root = node(rootName, rootTotals, new long[columns], null);
		List<List<Map<String, Object>>> childLists = new ArrayList<>();
		childLists.add(children(root));
		tree.visit((StackTree.NodeVisitor) (path, depth, values) -> {
			long[] totals = new long[columns];
			long[] selves = new long[columns];
			for (int column = 0; column < columns; column++) {
				totals[column] = values.total(column);
				selves[column] = values.self(column);
			}
			Map<String, Object> node = node(frames.name(path[depth - 1]), totals, selves,
					frames.kind(path[depth - 1]).name().toLowerCase(Locale.ROOT));
			childLists.get(depth - 1).add(node);
			if (childLists.size() == depth) {
				childLists.add(children(node));
			}
			else {
				childLists.set(depth, children(node));
			}
		});
		return root;
	}

	/** Keys in the order viewers have always read them: every total, then every self. */
	private static Map<String, Object> node(String name, long[] totals, long[] selves, String kind) {
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("name", name);
		for (int column = 0; column < totals.length; column++) {
			node.put(COLUMN_KEYS[column][0], totals[column]);
		}
		for (int column = 0; column < selves.length; column++) {
			node.put(COLUMN_KEYS[column][1], selves[column]);
		}
		if (kind != null) {
			node.put("kind", kind);
		}
		node.put("children", new ArrayList<Map<String, Object>>());
		return node;
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> children(Map<String, Object> node) {
		return (List<Map<String, Object>>) node.get("children");
	}

}
