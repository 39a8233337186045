package dev.spanprofile.render;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * Where one side of a comparison spends the most more, per request, than a typical
 * request: the line that answers "what do slow requests do that typical ones do not?"
 * before anyone reads the colours of a differential graph. Frames are compared by what
 * ends there (self weight; in a graph of waits, what was waited on), added up over every
 * path that reaches them, since a database read is the same read whichever controller
 * issued it.
 *
 * @param frame the frame's name
 * @param caller the nearest caller outside the JDK and native code (the driver's or the
 * application's method that waited, not the JDK's read it called) that most of the
 * examined side's weight there came through, or {@code null} when there is none
 * @param examinedPerRequest the examined side's weight there, per request of that side
 * @param typicalPerRequest the typical side's, per typical request (zero when there is
 * none)
 */
public record LargestDifference(String frame, String caller, double examinedPerRequest, double typicalPerRequest) {

	/** How much more weight per request the examined side has there. */
	public double morePerRequest() {
		return this.examinedPerRequest - this.typicalPerRequest;
	}

	/**
	 * @param tree two columns: the examined side, then the typical side
	 * @param examinedSpans requests on the examined side
	 * @param typicalSpans requests on the typical side
	 * @return the frame with the largest difference, or {@code null} when the examined
	 * side has more nowhere
	 */
	public static LargestDifference of(StackTree tree, FrameTable frames, FrameClassifier classifier,
			long examinedSpans, long typicalSpans) {
		if (examinedSpans <= 0) {
			return null;
		}
		Map<Integer, long[]> selfByFrame = new HashMap<>();
		Map<Integer, Map<Integer, Long>> callers = new HashMap<>();
		tree.visit((StackTree.NodeVisitor) (path, depth, node) -> {
			long selfValue = node.self(0);
			long selfBaseline = node.self(1);
			if (selfValue == 0 && selfBaseline == 0) {
				return;
			}
			int frame = path[depth - 1];
			long[] sums = selfByFrame.computeIfAbsent(frame, (key) -> new long[2]);
			sums[0] += selfValue;
			sums[1] += selfBaseline;
			int caller = (selfValue > 0) ? callerOf(path, depth, frames, classifier) : -1;
			if (caller >= 0) {
				callers.computeIfAbsent(frame, (key) -> new HashMap<>()).merge(caller, selfValue, Long::sum);
			}
		});
		int best = -1;
		double bestMore = 0;
		for (Map.Entry<Integer, long[]> entry : selfByFrame.entrySet()) {
			long[] sums = entry.getValue();
			double more = perRequest(sums[0], examinedSpans) - perRequest(sums[1], typicalSpans);
			// Ties go to the first name, so that the answer does not depend on the order
			// of a hash map.
			boolean tie = more == bestMore && best >= 0 && frames.name(entry.getKey()).compareTo(frames.name(best)) < 0;
			if (more > bestMore || tie) {
				best = entry.getKey();
				bestMore = more;
			}
		}
		if (best < 0) {
			return null;
		}
		long[] bestSums = selfByFrame.get(best);
		String caller = callers.getOrDefault(best, Map.of())
			.entrySet()
			.stream()
			.max(Map.Entry.<Integer, Long>comparingByValue()
				.thenComparing((entry) -> frames.name(entry.getKey()), Comparator.reverseOrder()))
			.map((entry) -> frames.name(entry.getKey()))
			.orElse(null);
		return new LargestDifference(frames.name(best), caller, perRequest(bestSums[0], examinedSpans),
				perRequest(bestSums[1], typicalSpans));
	}

	/** The frame nearest the leaf that is the application's or a library's, or -1. */
	private static int callerOf(int[] path, int depth, FrameTable frames, FrameClassifier classifier) {
		for (int i = depth - 2; i >= 0; i--) {
			FrameCategory category = classifier.classify(frames.name(path[i]), frames.kind(path[i]));
			if (category == FrameCategory.APPLICATION || category == FrameCategory.FRAMEWORK) {
				return path[i];
			}
		}
		return -1;
	}

	private static double perRequest(long weight, long spans) {
		return (spans > 0) ? (double) weight / spans : 0;
	}

}
