package dev.spanprofile.aggregate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;

/**
 * From a frame of a name's aggregate graph back to requests: the stored local roots of
 * that name with the most samples through that call path, so a pattern seen across many
 * requests leads to individual ones to read.
 */
public final class FrameSpans {

	private FrameSpans() {
	}

	/**
	 * @param path frame names from the outermost frame down to the one clicked
	 * @return at most {@code limit} spans, most samples in the frame first; spans without
	 * any are left out
	 */
	public static List<SpanSamples> top(SpanProfileStore store, String name, SampleKind kind, List<String> path,
			int limit) {
		FrameTable frames = store.frames();
		List<SpanSamples> result = new ArrayList<>();
		for (SpanRecord root : store.recent(
				(record) -> record.isLocalRoot() && !record.inFlight() && record.name().equals(name),
				Integer.MAX_VALUE)) {
			long[] samples = { 0 };
			InclusiveSamples.of(root, kind).visit((stack, depth, total, self) -> {
				if (depth == path.size() && matches(frames, stack, path)) {
					samples[0] += total;
				}
			});
			if (samples[0] > 0) {
				result.add(new SpanSamples(root, samples[0]));
			}
		}
		result.sort(Comparator.comparingLong(SpanSamples::samples).reversed());
		return (result.size() > limit) ? new ArrayList<>(result.subList(0, limit)) : result;
	}

	private static boolean matches(FrameTable frames, int[] stack, List<String> path) {
		for (int i = path.size() - 1; i >= 0; i--) {
			if (!frames.name(stack[i]).equals(path.get(i))) {
				return false;
			}
		}
		return true;
	}

	/** A stored span and its samples through the frame asked about. */
	public record SpanSamples(SpanRecord span, long samples) {
	}

}
