package dev.spanprofile.render;

import java.util.Locale;

import dev.spanprofile.profile.WaitKind;

/**
 * Says, on a request's breakdown, that its work likely ran on other threads without its
 * context, and which switch of its framework is why. A request whose work was handed to a
 * pool that did not carry its span reads in a particular way: its own thread returned
 * (its time unaccounted for) or parked waiting for the result, while the work's CPU went
 * to no span. That reading alone is not enough (a request may wait on a pool of
 * connections, or simply sleep), so the note is given only where the framework says that
 * a switch carrying the context is off. A request that did its own work on a machine
 * short of cores also has little CPU for its duration, the rest unaccounted unless the
 * kernel's figures were read; its CPU samples tell it apart.
 */
final class HandOffNote {

	/** Below this many sampling intervals a request has no samples whatever it did. */
	static final int MIN_INTERVALS = 5;

	/** At most this share of its duration on a CPU: hardly any work of its own. */
	static final double MAX_CPU_SHARE = 0.1;

	/**
	 * At most this many sampling intervals of CPU: a request that did its work itself on
	 * a machine short of cores has little CPU for its duration too, but its samples.
	 */
	static final int MAX_CPU_INTERVALS = 2;

	/** At least this share unaccounted for or parked: most of its time elsewhere. */
	static final double MIN_ELSEWHERE_SHARE = 0.5;

	private HandOffNote() {
	}

	/**
	 * The note for {@code breakdown}, or {@code null} when no switch is known to be off
	 * ({@code handOff} null), CPU is not sampled, the request is too short to tell, or
	 * its time reads otherwise.
	 */
	static String of(TimeBreakdown breakdown, String handOff, long intervalNanos) {
		long duration = breakdown.durationNanos();
		// A throttled process explains a request without CPU of its own as well: the
		// throttling line says so, and blaming a setting would mislead.
		if (handOff == null || breakdown.throttling() != null || !breakdown.cpuSampled()
				|| duration < MIN_INTERVALS * intervalNanos || breakdown.cpuNanos() > MAX_CPU_SHARE * duration
				|| breakdown.cpuNanos() > MAX_CPU_INTERVALS * intervalNanos) {
			return null;
		}
		long elsewhere = breakdown.unaccountedNanos() + parkedNanos(breakdown);
		if (elsewhere < MIN_ELSEWHERE_SHARE * duration) {
			return null;
		}
		String cpu = (breakdown.cpuNanos() > 0) ? CpuShare.millis(breakdown.cpuNanos() / 1e6) + " of CPU" : "no CPU";
		return String.format(Locale.ROOT,
				"%.0f %% of this request's time is unaccounted for or parked, with %s of its own: its work likely "
						+ "ran on another thread without its context, because %s.",
				Math.min(100.0, 100.0 * elsewhere / duration), cpu, handOff);
	}

	private static long parkedNanos(TimeBreakdown breakdown) {
		long parked = 0;
		for (WaitCategory category : breakdown.waits()) {
			if (category.name().equals(WaitKind.PARK.category())) {
				parked += category.nanos();
			}
		}
		return parked;
	}

}
