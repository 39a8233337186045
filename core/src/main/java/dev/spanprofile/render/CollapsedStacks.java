package dev.spanprofile.render;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.TreeNode;

/**
 * The collapsed-stack text format of flamegraph.pl and most flame-graph tools: one line
 * per distinct stack, frames root first joined by {@code ;}, then a space and the samples
 * that ended there in each column of the tree. A profile gives {@code frame;frame count};
 * a comparison {@code frame;frame slow typical}, as difffolded.pl writes and diff-aware
 * flame graph tools read.
 */
public final class CollapsedStacks {

	private CollapsedStacks() {
	}

	public static String render(StackTree tree, FrameTable frames) {
		StringBuilder out = new StringBuilder();
		int columns = tree.columns();
		tree.visit((StackTree.NodeVisitor) (path, depth, node) -> {
			if (!endsHere(node, columns)) {
				return;
			}
			for (int i = 0; i < depth; i++) {
				if (i > 0) {
					out.append(';');
				}
				// ';' and line breaks would change the structure; frame names never
				// legitimately contain them.
				out.append(sanitize(frames.name(path[i])));
			}
			for (int column = 0; column < columns; column++) {
				out.append(' ').append(node.self(column));
			}
			out.append('\n');
		});
		return out.toString();
	}

	private static boolean endsHere(TreeNode node, int columns) {
		for (int column = 0; column < columns; column++) {
			if (node.self(column) != 0) {
				return true;
			}
		}
		return false;
	}

	private static String sanitize(String frame) {
		if (frame.indexOf(';') < 0 && frame.indexOf('\n') < 0 && frame.indexOf('\r') < 0) {
			return frame;
		}
		return frame.replace(';', ':').replace('\n', ' ').replace('\r', ' ');
	}

}
