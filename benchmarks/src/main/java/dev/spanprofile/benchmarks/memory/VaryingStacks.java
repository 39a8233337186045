package dev.spanprofile.benchmarks.memory;

/**
 * A little CPU in stacks that differ from call to call (depth and the method at each
 * level vary), so that samples grow the stores' call trees as a real application's varied
 * code paths would.
 */
final class VaryingStacks {

	static volatile long sink;

	private VaryingStacks() {
	}

	static void descend(int depth, int path) {
		if (depth == 0) {
			work();
			return;
		}
		switch (path & 3) {
			case 0 -> left(depth - 1, path >>> 2);
			case 1 -> right(depth - 1, path >>> 2);
			case 2 -> middle(depth - 1, path >>> 2);
			default -> descend(depth - 1, path >>> 2);
		}
	}

	private static void left(int depth, int path) {
		descend(depth, path);
	}

	private static void right(int depth, int path) {
		descend(depth, path);
	}

	private static void middle(int depth, int path) {
		descend(depth, path);
	}

	private static void work() {
		long x = sink;
		for (int i = 0; i < 10_000; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
		}
		sink = x;
	}

}
