package dev.spanprofile.render;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * Where a profile's samples end: self time summed per function over all its call sites,
 * the flat "hot spots" list that tells which method to look at first.
 */
public final class SelfTime {

	private SelfTime() {
	}

	/** The {@code limit} functions with the most self samples, most first. */
	public static List<Entry> top(StackTree tree, FrameTable frames, int limit) {
		Map<Integer, long[]> selfByFrame = new HashMap<>();
		tree.visit((path, depth, total, self) -> {
			if (self > 0) {
				selfByFrame.computeIfAbsent(path[depth - 1], (frame) -> new long[1])[0] += self;
			}
		});
		List<Entry> entries = new ArrayList<>(selfByFrame.size());
		selfByFrame.forEach((frame, self) -> entries.add(new Entry(frames.name(frame), self[0])));
		entries.sort(Comparator.comparingLong(Entry::samples).reversed().thenComparing(Entry::frame));
		return (entries.size() > limit) ? List.copyOf(entries.subList(0, limit)) : entries;
	}

	/**
	 * One function's self time.
	 *
	 * @param frame the frame name, {@code package.Class.method}
	 * @param samples samples that ended in it
	 */
	public record Entry(String frame, long samples) {
	}

}
