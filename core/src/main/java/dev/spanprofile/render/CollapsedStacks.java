package dev.spanprofile.render;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * The collapsed-stack text format of flamegraph.pl and most flame-graph tools: one line per distinct stack,
 * frames root first joined by {@code ;}, then a space and the sample count.
 */
public final class CollapsedStacks {

	private CollapsedStacks() {
	}

	public static String render(StackTree tree, FrameTable frames) {
		StringBuilder out = new StringBuilder();
		tree.visit((path, depth, total, self) -> {
			if (self == 0) {
				return;
			}
			for (int i = 0; i < depth; i++) {
				if (i > 0) {
					out.append(';');
				}
				// ';' and line breaks would change the structure; frame names never legitimately contain them.
				out.append(sanitize(frames.name(path[i])));
			}
			out.append(' ').append(self).append('\n');
		});
		return out.toString();
	}

	private static String sanitize(String frame) {
		if (frame.indexOf(';') < 0 && frame.indexOf('\n') < 0 && frame.indexOf('\r') < 0) {
			return frame;
		}
		return frame.replace(';', ':').replace('\n', ' ').replace('\r', ' ');
	}

}
