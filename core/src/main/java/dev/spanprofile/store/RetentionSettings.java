package dev.spanprofile.store;

import java.time.Duration;

/**
 * Which finished requests the {@link SpanProfileStore} keeps beyond the most recent ones.
 *
 * @param slowestPerName how many of the slowest requests to keep per local-root span
 * name; 0 keeps none
 * @param window how long a request stays protected as slow or failed; after it, it is an
 * ordinary old request
 * @param maxNames span names tracked separately; requests of further names share one slot
 * set as "other"
 * @param maxErrorSpans failed requests kept in all (the latest one per name and minute);
 * 0 keeps none
 */
public record RetentionSettings(int slowestPerName, Duration window, int maxNames, int maxErrorSpans) {

	public RetentionSettings {
		if (slowestPerName < 0 || maxErrorSpans < 0) {
			throw new IllegalArgumentException("slowestPerName and maxErrorSpans must not be negative, were "
					+ slowestPerName + " and " + maxErrorSpans);
		}
		if (maxNames < 1) {
			throw new IllegalArgumentException("maxNames must be at least 1, was " + maxNames);
		}
		if (window == null || window.isNegative() || window.isZero()) {
			throw new IllegalArgumentException("window must be positive, was " + window);
		}
	}

	public static RetentionSettings defaults() {
		return new RetentionSettings(5, Duration.ofHours(1), 100, 60);
	}

	/** Keep only the most recent requests. */
	public static RetentionSettings recentOnly() {
		return new RetentionSettings(0, Duration.ofHours(1), 1, 0);
	}

}
