package dev.spanprofile.profile;

import java.util.Locale;

/**
 * What a sample measures; each span keeps one flame graph per kind.
 */
public enum SampleKind {

	/** On-CPU time: the thread was running (cpu, itimer and ctimer events). */
	CPU,

	/** Elapsed time: the thread was running or waiting (wall event). */
	WALL,

	/** Heap allocation: each sample's weight is the bytes it stands for (alloc event). */
	ALLOC,

	/**
	 * Lock contention: each sample's weight is the nanoseconds a thread waited to enter a
	 * lock (lock event).
	 */
	LOCK,

	/**
	 * Time spent waiting: each sample is one wait (socket or file I/O, a monitor, a park,
	 * a sleep) or a GC pause that stopped the thread, weighted by its nanoseconds; its
	 * stack ends in a {@link FrameKind#WAIT} frame that says what was waited on
	 * ({@link WaitKind}).
	 */
	WAIT;

	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Whether a sample's weight is a count of samples, each worth one sampling interval;
	 * otherwise the weight is itself the measure, in {@link #unit()}.
	 */
	public boolean counted() {
		return this == CPU || this == WALL;
	}

	/**
	 * Whether each sample is one event whose count matters beside its weight: a lock
	 * graph says how many waits made up the time (pprof's contentions), whereas an
	 * allocation sample's count depends only on the interval.
	 */
	public boolean countsEvents() {
		return this == LOCK || this == WAIT;
	}

	/** What the weight of a sample of this kind is counted in, pprof-style. */
	public String unit() {
		return switch (this) {
			case ALLOC -> "bytes";
			case LOCK, WAIT -> "nanoseconds";
			default -> "count";
		};
	}

}
