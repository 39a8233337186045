package dev.spanprofile.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * A flame graph as nested maps, {@code {name, value, self, kind, children}}, ready for any JSON serialiser (the
 * actuator's, here) and for d3-flame-graph-style viewers.
 */
public final class FlameGraphTree {

	private FlameGraphTree() {
	}

	/** The tree under a root node named {@code rootName}. */
	public static Map<String, Object> render(String rootName, StackTree tree, FrameTable frames) {
		Map<String, Object> root = node(rootName, tree.totalSamples(), 0, null);
		List<List<Map<String, Object>>> childLists = new ArrayList<>();
		childLists.add(children(root));
		tree.visit((path, depth, total, self) -> {
			List<Map<String, Object>> siblings = childLists.get(depth - 1);
			Map<String, Object> node = node(frames.name(path[depth - 1]), total, self,
					frames.kind(path[depth - 1]).name().toLowerCase(java.util.Locale.ROOT));
			siblings.add(node);
			if (childLists.size() == depth) {
				childLists.add(children(node));
			}
			else {
				childLists.set(depth, children(node));
			}
		});
		return root;
	}

	private static Map<String, Object> node(String name, long value, long self, String kind) {
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("name", name);
		node.put("value", value);
		node.put("self", self);
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
