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
 * @param awaitingRoom dropped requests that may await their samples at once, beside the
 * stored ones and within the same {@code maxBytes}; beyond, they are handed on without
 * them
 */
public record StoreSettings(int maxSpans, long maxBytes, boolean rootSpanOnly, RetentionSettings retention,
		int awaitingRoom) {

	/**
	 * The least room for requests awaiting their samples by default. Samples arrive a
	 * dump interval after they are taken, and Flight Recorder's waits at its flushes, one
	 * second apart and delivered a flush late: two seconds of requests ending faster than
	 * the store keeps them await (2,800 at 1,400 a second, most of a request's few
	 * hundred bytes each), whatever {@code maxSpans} a team chose for history.
	 */
	public static final int DEFAULT_AWAITING_ROOM = 10_000;

	/** Bounds with the default retention of slow and failed requests. */
	public StoreSettings(int maxSpans, long maxBytes, boolean rootSpanOnly) {
		this(maxSpans, maxBytes, rootSpanOnly, RetentionSettings.defaults());
	}

	/**
	 * Bounds with room for at least {@link #DEFAULT_AWAITING_ROOM} requests to await
	 * their samples, and {@code maxSpans} if that is more.
	 */
	public StoreSettings(int maxSpans, long maxBytes, boolean rootSpanOnly, RetentionSettings retention) {
		this(maxSpans, maxBytes, rootSpanOnly, retention, Math.max(maxSpans, DEFAULT_AWAITING_ROOM));
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
		if (awaitingRoom < 0) {
			throw new IllegalArgumentException("awaitingRoom must not be negative, was " + awaitingRoom);
		}
	}

	public static StoreSettings defaults() {
		return new StoreSettings(1000, 64L * 1024 * 1024, true);
	}

}
