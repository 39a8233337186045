package dev.spanprofile.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.spanprofile.tracking.Watermark;

/**
 * Requests the store has dropped before the collection cycle that joins their last
 * samples: out of sight (no view lists them) but still found by the attributor, so that
 * their samples land, until the samples up to their end are joined and they are handed to
 * the listeners of completed requests with their whole profile.
 * <p>
 * At most {@code maxRoots} requests wait, and their bytes are counted here, against the
 * store's memory bound. The store calls every method that moves a request in or out under
 * its eviction lock; lookups and counts are free of it.
 */
final class AwaitingRoots {

	private final int maxRoots;

	/** Every span of the waiting requests, by id. */
	private final Map<String, SpanRecord> spans = new ConcurrentHashMap<>();

	/**
	 * The waiting requests' local roots, in the order they were dropped. Guarded by the
	 * store's eviction lock.
	 */
	private final ArrayDeque<SpanRecord> roots = new ArrayDeque<>();

	/** The size of {@link #roots}, for readers without the lock (metrics). */
	private volatile int count;

	/**
	 * What their samples hold: moved here from the store's account, and charged here for
	 * later samples.
	 */
	private final AtomicLong bytes = new AtomicLong();

	private final LongAdder droppedIncomplete = new LongAdder();

	/**
	 * Until a profiler says, every profile counts as complete: a store nobody joins
	 * samples for has nothing to wait for.
	 */
	private volatile Watermark joinedUpTo = Watermark.EVERYTHING;

	/**
	 * Told, on the dropping thread, when a request starts waiting with none waiting
	 * before it: the collector is to pace itself for them from now on.
	 */
	private volatile Runnable firstWaiting;

	AwaitingRoots(int maxRoots) {
		this.maxRoots = maxRoots;
	}

	SpanRecord find(String spanId) {
		return this.spans.get(spanId);
	}

	/** Whether samples up to the end of this finished request may still be unjoined. */
	boolean awaitsSamples(SpanRecord root) {
		return !root.inFlight() && !this.joinedUpTo.covers(root.endEpochNanos());
	}

	boolean hasRoom() {
		return this.roots.size() < this.maxRoots;
	}

	boolean isEmpty() {
		return this.roots.isEmpty();
	}

	/**
	 * Move a dropped request here from {@code stored}, span by span: each is findable in
	 * one map or the other at every moment, since the attributor must not miss it in
	 * between.
	 */
	void add(SpanRecord root, Map<String, SpanRecord> stored) {
		this.roots.addLast(root);
		this.count = this.roots.size();
		moveGroup(root, stored);
		Runnable first = this.firstWaiting;
		if (first != null && this.count == 1) {
			first.run();
		}
	}

	void whenFirstWaiting(Runnable first) {
		this.firstWaiting = first;
	}

	private void moveGroup(SpanRecord record, Map<String, SpanRecord> stored) {
		this.spans.put(record.spanId(), record);
		record.awaitSamples(this.bytes);
		stored.remove(record.spanId(), record);
		for (SpanRecord child : record.children()) {
			moveGroup(child, stored);
		}
	}

	/**
	 * The request dropped longest ago goes now, with the samples it has: the store needs
	 * its memory.
	 */
	SpanRecord handOffOldest() {
		SpanRecord oldest = this.roots.pollFirst();
		this.count = this.roots.size();
		forget(oldest);
		this.droppedIncomplete.increment();
		return oldest;
	}

	/**
	 * Samples up to {@code upTo} are joined: from now on, requests that ended by then
	 * need not wait.
	 */
	void joinedUpTo(Watermark upTo) {
		this.joinedUpTo = upTo;
	}

	/** Whether no span waits, without the lock. */
	boolean noneWaiting() {
		return this.spans.isEmpty();
	}

	/**
	 * Take out the requests whose profile is complete by {@link #joinedUpTo}, to be
	 * handed on.
	 */
	List<SpanRecord> releaseComplete() {
		List<SpanRecord> complete = new ArrayList<>();
		Watermark upTo = this.joinedUpTo;
		for (Iterator<SpanRecord> it = this.roots.iterator(); it.hasNext();) {
			SpanRecord root = it.next();
			if (upTo.covers(root.endEpochNanos())) {
				it.remove();
				forget(root);
				complete.add(root);
			}
		}
		this.count = this.roots.size();
		return complete;
	}

	private void forget(SpanRecord record) {
		record.evict();
		this.spans.remove(record.spanId(), record);
		for (SpanRecord child : record.children()) {
			forget(child);
		}
	}

	/** A finished request went at once, with samples missing: no room to wait. */
	void countDroppedIncomplete() {
		this.droppedIncomplete.increment();
	}

	long droppedIncomplete() {
		return this.droppedIncomplete.sum();
	}

	/** Requests (local roots) waiting. */
	int count() {
		return this.count;
	}

	/** Spans waiting, requests with their descendants. */
	int spanCount() {
		return this.spans.size();
	}

	long sampleBytes() {
		return this.bytes.get();
	}

}
