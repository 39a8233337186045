package dev.spanprofile.sampling;

import java.util.Locale;

/** What triggers a sample. */
public enum ProfilingEvent {

	/**
	 * CPU time via perf_events where the kernel allows it; async-profiler falls back to
	 * ctimer by itself.
	 */
	CPU,

	/**
	 * Process-wide interval timer (setitimer): no kernel permissions needed, uneven
	 * across threads.
	 */
	ITIMER,

	/**
	 * Per-thread CPU timers (timer_create): no kernel permissions needed, and a quarter
	 * of what perf_events cost a sample on virtual machines, but about 5 % fewer samples
	 * than CPU time when threads outnumber cores: the kernel merges an expiration into a
	 * signal still pending, and async-profiler's Flight Recorder samples cannot carry the
	 * merged ones (docs/performance.md, accuracy). Linux only; elsewhere
	 * {@link #onPlatform} makes it itimer.
	 */
	CTIMER,

	/** Wall clock: running and waiting threads alike. */
	WALL,

	/**
	 * Heap allocations, sampled every so many allocated bytes and weighted by the bytes
	 * each sample stands for.
	 */
	ALLOC,

	/**
	 * Contended locks (monitors and java.util.concurrent locks), weighted by the time
	 * spent waiting.
	 */
	LOCK;

	/**
	 * Whether this event samples threads on a timer (cpu, itimer, ctimer, wall) rather
	 * than on what they do.
	 */
	public boolean timed() {
		return this != ALLOC && this != LOCK;
	}

	/** The name async-profiler and the properties use. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The event to ask for on the given operating system: async-profiler has per-thread
	 * CPU timers on Linux only, and the process-wide timer is the nearest thing
	 * elsewhere.
	 */
	public ProfilingEvent onPlatform(String osName) {
		boolean linux = osName != null && osName.toLowerCase(Locale.ROOT).startsWith("linux");
		return (this == CTIMER && !linux) ? ITIMER : this;
	}

	/** Parse a user-supplied name, case-insensitively. */
	public static ProfilingEvent of(String name) {
		for (ProfilingEvent event : values()) {
			if (event.id().equalsIgnoreCase(name.trim())) {
				return event;
			}
		}
		throw new IllegalArgumentException(
				"Unknown profiling event '" + name + "'; expected one of cpu, itimer, ctimer, wall, alloc, lock");
	}

}
