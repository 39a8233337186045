package dev.spanprofile.view;

import java.util.Locale;

import dev.spanprofile.profile.SampleKind;

/**
 * Sample weights as people read them: a count of samples, megabytes allocated or
 * milliseconds waited.
 */
final class Weights {

	private Weights() {
	}

	static String describe(SampleKind kind, long weight) {
		return switch (kind) {
			case ALLOC -> String.format(Locale.ROOT, "%.1f MB allocated", weight / (1024.0 * 1024.0));
			case LOCK -> String.format(Locale.ROOT, "%.1f ms waiting for locks", weight / 1e6);
			case WAIT -> String.format(Locale.ROOT, "%.1f ms waiting", weight / 1e6);
			default -> Long.toString(weight);
		};
	}

	/**
	 * As {@link #describe}, led by the number of waits for lock graphs: "8 waits, 400.0
	 * ms waiting for locks".
	 */
	static String describe(SampleKind kind, long weight, long events) {
		if (!kind.countsEvents() || weight == 0) {
			return describe(kind, weight);
		}
		return events + ((events == 1) ? " wait, " : " waits, ") + describe(kind, weight);
	}

	/** How the pages' switch names a kind, with the unit its graph is drawn in. */
	static String label(SampleKind kind) {
		return switch (kind) {
			case CPU -> "CPU";
			case WALL -> "Wall";
			case ALLOC -> "Allocations (MB)";
			case LOCK -> "Locks (ms)";
			case WAIT -> "Waits (ms)";
		};
	}

}
