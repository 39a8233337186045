package dev.spanprofile.view;

import java.time.Duration;
import java.util.Locale;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.render.CpuShare;
import dev.spanprofile.sampling.JfrStreamingEngine;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;

/**
 * Why a profile has no samples, in words: an empty picture would leave the reader
 * guessing whether the span was too short, idle, or not collected yet.
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
		double durationMillis = profiled.durationNanos(nowEpochNanos) / 1_000_000.0;
		String duration = millis(durationMillis);
		String interval = millis(intervalMillis);
		String notYet = notYet(profiled, complete, status, duration, dumpIntervalMillis);
		if (notYet != null) {
			return notYet;
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

	/**
	 * The same for a graph of {@code kind}: allocation and lock samples are not taken per
	 * interval of time, so an empty graph says the span allocated or waited too little
	 * for the configured threshold.
	 */
	static String explain(SpanRecord profiled, SampleKind kind, long samples, boolean complete, EngineStatus status,
			SamplerSettings sampler, long dumpIntervalMillis, long nowEpochNanos) {
		if (kind.counted()) {
			return explain(profiled, samples, complete, status, sampler.interval().toNanos() / 1_000_000.0,
					dumpIntervalMillis, nowEpochNanos);
		}
		if (samples > 0) {
			return null;
		}
		String duration = millis(profiled.durationNanos(nowEpochNanos) / 1_000_000.0);
		String notYet = notYet(profiled, complete, status, duration, dumpIntervalMillis);
		if (notYet != null) {
			return notYet;
		}
		if (kind == SampleKind.ALLOC) {
			if ("jfr".equals(status.engine())) {
				return "No allocation sample in " + duration + ": Flight Recorder takes at most "
						+ JfrStreamingEngine.ALLOCATION_SAMPLE_RATE + " allocation samples across the whole JVM, "
						+ "and none fell into this span: it allocated little, or other threads allocated much more "
						+ "meanwhile.";
			}
			return "No allocation sample in " + duration + ": a thread is sampled about once every "
					+ bytes(sampler.allocInterval()) + " it allocates (spanprofile.alloc-interval), and this span "
					+ "allocated less than that. Lower spanprofile.alloc-interval to see smaller allocations.";
		}
		Duration threshold = sampler.lockThreshold();
		// Above zero async-profiler samples waits by their added-up length and Flight
		// Recorder drops shorter ones: either way, waits much shorter than the threshold
		// may go unrecorded.
		String longer = threshold.isZero() ? "at all" : "long enough to be recorded at spanprofile.lock-threshold="
				+ millis(threshold.toNanos() / 1_000_000.0) + " (lower it to see shorter waits)";
		return "No lock wait in " + duration + ": this span never waited to enter a contended monitor or "
				+ "java.util.concurrent lock " + longer + ". Waiting in Object.wait, sleep or I/O is not lock "
				+ "contention; spanprofile.event=wall shows it.";
	}

	/**
	 * The reasons that hold whatever the kind: the profiler is off, or the samples are
	 * not all in yet.
	 */
	private static String notYet(SpanRecord profiled, boolean complete, EngineStatus status, String duration,
			long dumpIntervalMillis) {
		if (!status.running()) {
			return "No samples: the profiler is not running (" + status.problem() + ").";
		}
		if (profiled.inFlight()) {
			return "No sample yet: the span has run for " + duration + ". Samples are joined to spans every "
					+ dumpIntervalMillis + " ms; reload to see them.";
		}
		if (!complete) {
			return "No sample yet: the span ended moments ago and its samples are still being collected (every "
					+ dumpIntervalMillis + " ms). Reload in a moment.";
		}
		return null;
	}

	private static String bytes(long bytes) {
		if (bytes >= 1024 * 1024) {
			return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
		}
		return (bytes >= 1024) ? (bytes / 1024) + " KB" : bytes + " bytes";
	}

	private static boolean isCpuEvent(String event) {
		return event == null || !event.toLowerCase(Locale.ROOT).contains("wall");
	}

	static String millis(double millis) {
		return CpuShare.millis(millis);
	}

}
