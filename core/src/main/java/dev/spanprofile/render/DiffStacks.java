package dev.spanprofile.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.profile.DiffTree;
import dev.spanprofile.profile.FrameTable;

/**
 * A differential flame graph as text and as nested maps. Text: one {@code frame;frame;frame slow typical} line per
 * stack that ended on either side, as difffolded.pl writes and diff-aware flame graph tools read. Tree:
 * {@code {name, value, baseline, self, selfBaseline, kind, children}}, {@code value} being the examined (slow) side.
 */
public final class DiffStacks {

	private DiffStacks() {
	}

	public static String collapsed(DiffTree tree, FrameTable frames) {
		StringBuilder out = new StringBuilder();
		tree.visit((path, depth, value, selfValue, baseline, selfBaseline) -> {
			if (selfValue == 0 && selfBaseline == 0) {
				return;
			}
			for (int i = 0; i < depth; i++) {
				if (i > 0) {
					out.append(';');
				}
				out.append(frames.name(path[i]).replace(';', ':').replace('\n', ' ').replace('\r', ' '));
			}
			out.append(' ').append(selfValue).append(' ').append(selfBaseline).append('\n');
		});
		return out.toString();
	}

	/** The tree under a root node named {@code rootName}. */
	public static Map<String, Object> tree(String rootName, DiffTree tree, FrameTable frames) {
		Map<String, Object> root = node(rootName, tree.totalValue(), 0, tree.totalBaseline(), 0, null);
		List<List<Map<String, Object>>> childLists = new ArrayList<>();
		childLists.add(children(root));
		tree.visit((path, depth, value, selfValue, baseline, selfBaseline) -> {
			Map<String, Object> node = node(frames.name(path[depth - 1]), value, selfValue, baseline, selfBaseline,
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

	private static Map<String, Object> node(String name, long value, long self, long baseline, long selfBaseline,
			String kind) {
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("name", name);
		node.put("value", value);
		node.put("baseline", baseline);
		node.put("self", self);
		node.put("selfBaseline", selfBaseline);
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
