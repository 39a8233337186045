package dev.spanprofile.view;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.render.FrameCategory;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.FrameNames;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;

/**
 * What to call a span on the pages. Micrometer's tracing names a span only when it ends:
 * until then the SDK span is called {@code <unspecified span name>} and has no attributes
 * either. For such a running span the first application method in its samples so far (say
 * {@code OrderController.checkout}) says which request it is.
 */
public final class SpanNames {

	/** What an SDK span is called until Micrometer names it at its end. */
	public static final String UNSPECIFIED = "<unspecified span name>";

	private SpanNames() {
	}

	static boolean isPlaceholder(String name) {
		return name == null || name.isBlank() || name.equals(UNSPECIFIED);
	}

	/**
	 * The span's name, or for a running span without one yet, a stand-in built from its
	 * samples and thread.
	 */
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

	/**
	 * The request's handler: the outermost application frame below a dispatcher (Spring
	 * MVC's or WebFlux's), so that the application's own servlet filters do not stand for
	 * every request; without a dispatcher, the outermost application frame. The heaviest
	 * wins among equally deep ones.
	 */
	private static String entryFrame(StackTree samples, FrameTable frames, FrameClassifier classifier) {
		Map<Integer, Boolean> application = new HashMap<>();
		Map<Integer, Boolean> dispatcher = new HashMap<>();
		// [0]: best below a dispatcher, [1]: best anywhere; each {frame, depth, total}.
		long[][] best = { { -1, Long.MAX_VALUE, 0 }, { -1, Long.MAX_VALUE, 0 } };
		samples.visit((path, depth, total, self) -> {
			int frame = path[depth - 1];
			boolean mine = application.computeIfAbsent(frame,
					(id) -> classifier.classify(frames.name(id), frames.kind(id)) == FrameCategory.APPLICATION);
			if (!mine) {
				return;
			}
			boolean dispatched = false;
			for (int i = 0; i < depth - 1 && !dispatched; i++) {
				dispatched = dispatcher.computeIfAbsent(path[i], (id) -> isDispatcher(frames.name(id)));
			}
			for (int choice = dispatched ? 0 : 1; choice < 2; choice++) {
				long[] candidate = best[choice];
				if (depth < candidate[1] || (depth == candidate[1] && total > candidate[2])) {
					candidate[0] = frame;
					candidate[1] = depth;
					candidate[2] = total;
				}
			}
		});
		long frame = (best[0][0] >= 0) ? best[0][0] : best[1][0];
		return (frame >= 0) ? frames.name((int) frame) : null;
	}

	private static boolean isDispatcher(String frame) {
		return frame.startsWith("org.springframework.web.servlet.DispatcherServlet.")
				|| frame.startsWith("org.springframework.web.reactive.DispatcherHandler.");
	}

}
