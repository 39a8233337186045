package dev.spanprofile.store;

/**
 * Bounds of the {@link SpanProfileStore}.
 *
 * @param maxSpans spans kept; beyond it the oldest finished requests (local roots with
 * all their descendants) are dropped first
 * @param maxBytes approximate heap for stored samples; beyond it the oldest finished
 * requests are dropped
 * @param rootSpanOnly whether samples go to the local root span instead of the innermost
 * active span
 * @param retention which finished requests are kept beyond the most recent ones, within
 * the same bounds
 */
public record StoreSettings(int maxSpans, long maxBytes, boolean rootSpanOnly, RetentionSettings retention) {

	/** Bounds with the default retention of slow and failed requests. */
	public StoreSettings(int maxSpans, long maxBytes, boolean rootSpanOnly) {
		this(maxSpans, maxBytes, rootSpanOnly, RetentionSettings.defaults());
	}

	public StoreSettings {
		if (maxSpans < 1) {
			throw new IllegalArgumentException("maxSpans must be at least 1, was " + maxSpans);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
		}
		if (retention == null) {
			throw new IllegalArgumentException("retention must not be null");
		}
	}

	public static StoreSettings defaults() {
		return new StoreSettings(1000, 64L * 1024 * 1024, true);
	}

}
