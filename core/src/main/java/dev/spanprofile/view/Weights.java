package dev.spanprofile.view;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import dev.spanprofile.store.SampleKind;

/** Sample weights as people read them: a count of samples, megabytes allocated or milliseconds waited. */
final class Weights {

	private Weights() {
	}

	static String describe(SampleKind kind, long weight) {
		return switch (kind) {
			case ALLOC -> String.format(Locale.ROOT, "%.1f MB allocated", weight / (1024.0 * 1024.0));
			case LOCK -> String.format(Locale.ROOT, "%.1f ms waiting for locks", weight / 1e6);
			default -> Long.toString(weight);
		};
	}

	/** As {@link #describe}, led by the number of waits for lock graphs: "8 waits, 400.0 ms waiting for locks". */
	static String describe(SampleKind kind, long weight, long events) {
		if (!kind.countsEvents() || weight == 0) {
			return describe(kind, weight);
		}
		return events + ((events == 1) ? " wait, " : " waits, ") + describe(kind, weight);
	}

	/** {@code cpu|wall|alloc}: what can be asked for. */
	static String eventChoices(Set<SampleKind> kinds) {
		return kinds.stream().map(SampleKind::id).collect(Collectors.joining("|"));
	}

}
