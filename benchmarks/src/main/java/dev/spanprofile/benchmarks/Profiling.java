package dev.spanprofile.benchmarks;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.tracking.ActivationTracking;

/**
 * Checks shared by the in-process benchmarks: a benchmark that cannot profile must fail,
 * never report numbers of a profiler that did not run.
 */
public final class Profiling {

	private Profiling() {
	}

	/**
	 * Install the activation hook; fails when OpenTelemetry's context was used before it
	 * could be.
	 */
	public static void requireActivationHook() {
		ActivationTracking.install();
		if (!ActivationTracking.isActive()) {
			throw new IllegalStateException(ActivationTracking.lateInstallAdvice());
		}
	}

	public static void requireStarted(SpanProfiler profiler) {
		if (!profiler.start()) {
			throw new IllegalStateException("spanprofile did not start: " + profiler.status().problem());
		}
	}

}
