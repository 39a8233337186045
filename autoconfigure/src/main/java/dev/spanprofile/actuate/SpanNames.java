package dev.spanprofile.actuate;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.render.FrameCategory;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.FrameNames;
import dev.spanprofile.store.FrameTable;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StackTree;
import org.jspecify.annotations.Nullable;

/**
 * What to call a span on the pages. Micrometer's tracing names a span only when it ends: until then the SDK span is
 * called {@code <unspecified span name>} and has no attributes either. For such a running span the first application
 * method in its samples so far (say {@code OrderController.checkout}) says which request it is.
 */
final class SpanNames {

	static final String UNSPECIFIED = "<unspecified span name>";

	private SpanNames() {
	}

	static boolean isPlaceholder(@Nullable String name) {
		return name == null || name.isBlank() || name.equals(UNSPECIFIED);
	}

	/** The span's name, or for a running span without one yet, a stand-in built from its samples and thread. */
	static String display(SpanRecord record, StackTree samples, FrameTable frames, FrameClassifier classifier) {
		if (!isPlaceholder(record.name())) {
			return record.name();
		}
		if (!record.inFlight()) {
			return (record.name() != null && !record.name().isBlank()) ? record.name() : UNSPECIFIED;
		}
		String entry = entryFrame(samples, frames, classifier);
		String kind = record.kind().toLowerCase(Locale.ROOT);
		return (entry != null) ? "running: " + FrameNames.shortName(entry) + " on " + record.threadName()
				: "running " + kind + " span on " + record.threadName();
	}

	/** The outermost application frame, the heaviest one when several are equally deep. */
	private static @Nullable String entryFrame(StackTree samples, FrameTable frames, FrameClassifier classifier) {
		Map<Integer, Boolean> application = new HashMap<>();
		int[] best = { -1, Integer.MAX_VALUE };
		long[] bestTotal = { 0 };
		samples.visit((path, depth, total, self) -> {
			int frame = path[depth - 1];
			boolean mine = application.computeIfAbsent(frame,
					(id) -> classifier.classify(frames.name(id), frames.kind(id)) == FrameCategory.APPLICATION);
			if (mine && (depth < best[1] || (depth == best[1] && total > bestTotal[0]))) {
				best[0] = frame;
				best[1] = depth;
				bestTotal[0] = total;
			}
		});
		return (best[0] >= 0) ? frames.name(best[0]) : null;
	}

}
