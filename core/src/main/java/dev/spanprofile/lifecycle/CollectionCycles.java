package dev.spanprofile.lifecycle;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many collection cycles ran and how long they took in total, readable from any
 * thread: the time a cycle takes is the profiler's own overhead on the collector thread,
 * and how far profiles lag behind.
 */
public final class CollectionCycles {

	private final AtomicLong count = new AtomicLong();

	private final AtomicLong totalNanos = new AtomicLong();

	private final AtomicLong maxNanos = new AtomicLong();

	void record(long nanos) {
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

	/** The longest cycle so far. */
	public long maxNanos() {
		return this.maxNanos.get();
	}

}
