package dev.spanprofile.view;

import java.util.Locale;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.render.CpuShare;
import dev.spanprofile.store.SpanRecord;

/**
 * Why a profile has no samples, in words: an empty picture would leave the reader guessing whether the span was too
 * short, idle, or not collected yet.
 */
final class EmptyProfiles {

	private EmptyProfiles() {
	}

	/**
	 * @param profiled the span whose samples were looked at
	 * @param complete whether every sample up to its end has been joined
	 * @return the reason, or {@code null} when the profile has samples
	 */
	static String explain(SpanRecord profiled, long samples, boolean complete, EngineStatus status,
			double intervalMillis, long dumpIntervalMillis, long nowEpochNanos) {
		if (samples > 0) {
			return null;
		}
		if (!status.running()) {
			return "No samples: the profiler is not running (" + status.problem() + ").";
		}
		double durationMillis = profiled.durationNanos(nowEpochNanos) / 1_000_000.0;
		String duration = millis(durationMillis);
		String interval = millis(intervalMillis);
		if (profiled.inFlight()) {
			return "No sample yet: the span has run for " + duration + ". Samples are joined to spans every "
					+ dumpIntervalMillis + " ms; reload to see them.";
		}
		if (!complete) {
			return "No sample yet: the span ended moments ago and its samples are still being collected (every "
					+ dumpIntervalMillis + " ms). Reload in a moment.";
		}
		if (durationMillis < intervalMillis) {
			return "No sample: this span lasted " + duration + ", shorter than the " + interval
					+ " sampling interval, so no sample fell into it. Lower spanprofile.interval to catch spans this "
					+ "short, or look at the request as a whole.";
		}
		if (isCpuEvent(status.event())) {
			return "No sample in " + duration + ": with event=" + status.event() + " a thread is sampled about once "
					+ "per " + interval + " of CPU time, and this span spent less than that on a CPU: it was mostly "
					+ "waiting (I/O, locks, sleep, other threads). spanprofile.event=wall samples waiting threads too.";
		}
		return "No sample in " + duration + ": its work may have run on threads that did not carry the span's "
				+ "context.";
	}

	private static boolean isCpuEvent(String event) {
		return event == null || !event.toLowerCase(Locale.ROOT).contains("wall");
	}

	static String millis(double millis) {
		return CpuShare.millis(millis);
	}

}
