package dev.spanprofile.render;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * A span's samples with the profiler's own work taken out. When async-profiler's
 * wall-clock signal handler runs on a request thread, a CPU sample taken meanwhile shows
 * the handler (often under the kernel's signal delivery) on top of the request's stack:
 * the request's flame graph and self-time table then list the profiler as if the
 * application had spent that time. Such samples are kept apart and counted, so that the
 * CPU a request is charged is its own.
 *
 * @param application the samples whose stack holds no frame of the profiler
 * @param profiler the weight of the samples taken while the profiler's own code ran on
 * the thread
 */
public record ProfilerWork(StackTree application, long profiler) {

	/**
	 * {@code samples} split into the application's and the profiler's; {@code samples}
	 * itself is left alone.
	 */
	public static ProfilerWork split(StackTree samples, FrameTable frames) {
		StackTree application = new StackTree();
		long[] profiler = new long[1];
		Map<Integer, Boolean> own = new HashMap<>();
		// Depth of the outermost profiler frame on the current path; the tree is walked
		// depth first, so a node no deeper than it has left that frame's subtree.
		int[] ownDepth = { Integer.MAX_VALUE };
		samples.visit((StackTree.EventsVisitor) (path, depth, total, self, selfEvents) -> {
			if (depth <= ownDepth[0]) {
				ownDepth[0] = Integer.MAX_VALUE;
			}
			int frame = path[depth - 1];
			if (ownDepth[0] == Integer.MAX_VALUE && own.computeIfAbsent(frame,
					(id) -> FrameClassifier.isProfilerFrame(frames.name(id), frames.kind(id)))) {
				ownDepth[0] = depth;
			}
			if (self == 0) {
				return;
			}
			if (ownDepth[0] <= depth) {
				profiler[0] += self;
			}
			else {
				application.add(Arrays.copyOf(path, depth), self, selfEvents);
			}
		});
		return new ProfilerWork(application, profiler[0]);
	}

}
