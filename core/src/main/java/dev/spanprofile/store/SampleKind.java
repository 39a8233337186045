package dev.spanprofile.store;

import java.util.Locale;

/**
 * What a sample measures; each span keeps one flame graph per kind.
 */
public enum SampleKind {

	/** On-CPU time: the thread was running (cpu, itimer and ctimer events). */
	CPU,

	/** Elapsed time: the thread was running or waiting (wall event). */
	WALL;

	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}
