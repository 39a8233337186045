package dev.spanprofile.slowlog;

import java.time.Duration;

/**
 * When a slow request gets a log line.
 *
 * @param threshold requests (local roots) longer than this are logged; {@code null} logs
 * none
 * @param maxPerMinute most lines in any minute; further slow requests are only counted
 * @param flameGraphPath path of the spanprofile endpoint, to which the span id is
 * appended in the line, e.g. {@code /actuator/spanprofile}
 */
public record SlowSpanLogSettings(Duration threshold, int maxPerMinute, String flameGraphPath) {

	public SlowSpanLogSettings {
		if (threshold != null && threshold.isNegative()) {
			throw new IllegalArgumentException("threshold must not be negative, was " + threshold);
		}
		if (maxPerMinute < 1) {
			throw new IllegalArgumentException("maxPerMinute must be at least 1, was " + maxPerMinute);
		}
		if (flameGraphPath == null) {
			throw new IllegalArgumentException("flameGraphPath must not be null");
		}
	}

	public static SlowSpanLogSettings off() {
		return new SlowSpanLogSettings(null, 10, "/actuator/spanprofile");
	}

	public boolean enabled() {
		return this.threshold != null;
	}

	/** Whether a request that took {@code durationNanos} gets a line. */
	public boolean isSlow(long durationNanos) {
		return this.threshold != null && durationNanos > this.threshold.toNanos();
	}

}
