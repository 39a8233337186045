package dev.spanprofile.benchmarks.memory;

import java.time.Duration;

/**
 * @param spansPerSecond spans created per second (each request is a root span with one
 * child)
 * @param duration how long spans are created
 * @param threads threads creating them
 * @param maxSpans the store's span limit
 * @param maxBytes the store's memory budget ({@code spanprofile.max-memory})
 */
public record MemoryParameters(int spansPerSecond, Duration duration, int threads, int maxSpans, long maxBytes) {

	/**
	 * What docs/performance.md reports: 10 000 spans/s for 60 s into a store whose span
	 * limit is out of reach, so that the memory budget is what bounds it.
	 */
	public static MemoryParameters full() {
		return new MemoryParameters(10_000, Duration.ofSeconds(60), 2, 10_000_000, 32L * 1024 * 1024);
	}

}
