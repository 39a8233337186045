package dev.spanprofile.store;

/**
 * Bounds of the {@link SpanProfileStore}.
 *
 * @param maxSpans spans kept; beyond it the oldest finished requests (local roots with all their descendants)
 * are dropped first
 * @param maxBytes approximate heap for stored samples; beyond it the oldest finished requests are dropped
 * @param rootSpanOnly whether samples go to the local root span instead of the innermost active span
 */
public record StoreSettings(int maxSpans, long maxBytes, boolean rootSpanOnly) {

	public StoreSettings {
		if (maxSpans < 1) {
			throw new IllegalArgumentException("maxSpans must be at least 1, was " + maxSpans);
		}
		if (maxBytes < 1) {
			throw new IllegalArgumentException("maxBytes must be positive, was " + maxBytes);
		}
	}

	public static StoreSettings defaults() {
		return new StoreSettings(1000, 64L * 1024 * 1024, true);
	}

}
