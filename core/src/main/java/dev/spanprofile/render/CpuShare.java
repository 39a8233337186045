package dev.spanprofile.render;

import java.time.Duration;
import java.util.Locale;

/**
 * How much of a span's duration was spent on a CPU, estimated from its CPU samples (each
 * stands for one sampling interval of CPU time). Latency is wall time: a slow span with a
 * small share was mostly waiting, which CPU samples cannot show, and the reader should be
 * told so rather than be left with a thin flame graph.
 *
 * @param cpuMillis estimated CPU time
 * @param durationMillis the span's duration (so far, for a running span)
 */
public record CpuShare(double cpuMillis, double durationMillis) {

	public static CpuShare of(long cpuSamples, Duration interval, double durationMillis) {
		return new CpuShare(cpuSamples * interval.toNanos() / 1_000_000.0, durationMillis);
	}

	/**
	 * Less than half of the duration on a CPU: the answer to "why slow" is in the
	 * waiting.
	 */
	public boolean mostlyOffCpu() {
		return this.cpuMillis < this.durationMillis / 2;
	}

	/** For example {@code CPU 40 ms of 183 ms}. */
	@Override
	public String toString() {
		return "CPU " + millis(this.cpuMillis) + " of " + millis(this.durationMillis);
	}

	/** Milliseconds for people: whole ones from 100 ms up, one decimal below. */
	public static String millis(double millis) {
		if (millis >= 100) {
			return String.format(Locale.ROOT, "%,.0f ms", millis);
		}
		return String.format(Locale.ROOT, "%.1f ms", millis);
	}

}
