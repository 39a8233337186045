package dev.spanprofile.test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;

/**
 * Where a request made by a test begins in its samples' stacks. MockMvc runs the request
 * on the test's own thread, so every sample carries the test's frames below it
 * (Surefire's, JUnit's, the test method, {@code MockMvc.perform}): they belong to the
 * test, not to the request, and would make every share "under" the test's package, every
 * flame graph a tower of them and every collapsed line kilobytes long. The frames up to
 * and including the outermost entry are cut; a stack without one (a request on a server's
 * thread) is left whole.
 */
final class RequestEntry {

	/**
	 * Frames that hand a request from a test to the application: MockMvc's, which
	 * MockMvcTester and the clients bound to MockMvc go through too.
	 */
	static final Set<String> ENTRY_FRAMES = Set.of("org.springframework.test.web.servlet.MockMvc.perform");

	private RequestEntry() {
	}

	/** {@code samples} with every stack cut at its request's entry. */
	static StackTree cut(StackTree samples, FrameTable frames) {
		StackTree cut = new StackTree();
		Map<Integer, Boolean> entries = new HashMap<>();
		samples.visit((StackTree.EventsVisitor) (path, depth, total, self, selfEvents) -> {
			if (self == 0 && selfEvents == 0) {
				return;
			}
			int from = 0;
			for (int i = 0; i < depth; i++) {
				if (entries.computeIfAbsent(path[i], (id) -> ENTRY_FRAMES.contains(frames.name(id)))) {
					// A sample in the entry frame itself keeps that frame.
					from = Math.min(i + 1, depth - 1);
					break;
				}
			}
			cut.add(Arrays.copyOfRange(path, from, depth), self, selfEvents);
		});
		return cut;
	}

}
