package dev.spanprofile.lifecycle;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many collections ran and how long they took in total, readable from any thread: the
 * time a collection takes is the profiler's own overhead on the collector thread, and how
 * far profiles lag behind. Also what the last one left retained (for tests and
 * diagnostics).
 */
public final class CollectionCycles {

	private final AtomicLong count = new AtomicLong();

	private final AtomicLong totalNanos = new AtomicLong();

	private final AtomicLong maxNanos = new AtomicLong();

	private volatile long deliveryHorizonNanos;

	private volatile int retainedTimelines;

	private volatile int retainedChangePoints;

	void record(long nanos, long deliveryHorizonNanos, int retainedTimelines, int retainedChangePoints) {
		this.deliveryHorizonNanos = deliveryHorizonNanos;
		this.retainedTimelines = retainedTimelines;
		this.retainedChangePoints = retainedChangePoints;
		this.totalNanos.addAndGet(nanos);
		this.maxNanos.accumulateAndGet(nanos, Math::max);
		this.count.incrementAndGet();
	}

	public long count() {
		return this.count.get();
	}

	public long totalNanos() {
		return this.totalNanos.get();
	}

	/** The longest collection so far. */
	public long maxNanos() {
		return this.maxNanos.get();
	}

	/**
	 * How long before the last collection change points were kept at the longest,
	 * whatever the engine's promise: its delivery horizon.
	 */
	public long deliveryHorizonNanos() {
		return this.deliveryHorizonNanos;
	}

	/** Threads whose change points the attributor held after the last collection. */
	public int retainedTimelines() {
		return this.retainedTimelines;
	}

	/** Change points the attributor held after the last collection, all threads. */
	public int retainedChangePoints() {
		return this.retainedChangePoints;
	}

}
