package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Which requests leave the store to keep it within its bounds, and in what order.
 * Requests (local roots with their descendants) go whole: finished ones oldest first;
 * running ones only at twice the span limit (spans that never end must not grow the store
 * forever). Requests kept longer as slow or failed ({@link ProtectedRoots}) are out of
 * that order until released; a dropped request still missing samples awaits them in
 * {@link FinishedRequests}.
 * <p>
 * One lock guards every move between those places. Request threads only try it: when
 * another thread is evicting, they leave the work to it.
 */
final class Eviction {

	private final StoreSettings settings;

	private final Map<String, SpanRecord> spans;

	/** What the samples of stored requests not protected hold. */
	private final AtomicLong storedSampleBytes;

	private final LongSupplier bytes;

	private final LongSupplier clock;

	private final FinishedRequests finished;

	private final ProtectedRoots protectedRoots;

	/** Local roots not protected, in the order they started: the eviction order. */
	private final ConcurrentLinkedDeque<SpanRecord> rootsInStartOrder = new ConcurrentLinkedDeque<>();

	private final ReentrantLock evicting = new ReentrantLock();

	private final LongAdder evictedSpans = new LongAdder();

	/**
	 * Where a pass that found the store over its bounds stops: a little under them, so
	 * that the next pass is many requests away. A pass has a cost of its own beyond the
	 * requests it drops, and with the store full at a few thousand requests a second one
	 * pass per request started was a seventh of what spanprofile cost a request thread.
	 */
	private final int spansAfterPass;

	private final long bytesAfterPass;

	/**
	 * @param spans the store's spans by id, which requests leave
	 * @param storedSampleBytes the account the samples of stored requests are charged to,
	 * but for protected ones
	 * @param bytes the store's memory estimate now
	 * @param clock epoch nanoseconds now, for the end of retention windows
	 */
	Eviction(StoreSettings settings, Map<String, SpanRecord> spans, AtomicLong storedSampleBytes, LongSupplier bytes,
			LongSupplier clock, FinishedRequests finished) {
		this.settings = settings;
		this.spans = spans;
		this.storedSampleBytes = storedSampleBytes;
		this.bytes = bytes;
		this.clock = clock;
		this.finished = finished;
		this.spansAfterPass = settings.maxSpans() - settings.maxSpans() / 64;
		this.bytesAfterPass = settings.maxBytes() - settings.maxBytes() / 64;
		// Protected requests get at most half of the bounds: the recent ones always keep
		// the other half (a store of one span keeps none).
		this.protectedRoots = new ProtectedRoots(settings.retention(), settings.maxSpans() / 2, settings.maxBytes() / 2,
				this::chargeToStore);
	}

	/** A local root started: last in the eviction order. */
	void started(SpanRecord root) {
		this.rootsInStartOrder.add(root);
	}

	/**
	 * A request left out on purpose (say, to the actuator) goes now, without reaching any
	 * listener.
	 */
	void excluded(SpanRecord root) {
		this.rootsInStartOrder.remove(root);
		removeGroup(root);
	}

	/**
	 * A request is about to be marked ended: keep it longer if it is among the slowest,
	 * the latest failed, or forced by its caller. Before it is marked: until then no
	 * eviction pass takes it, so it cannot go while being judged.
	 */
	void retain(SpanRecord root, String name, boolean error, long endEpochNanos) {
		long duration = Math.max(0, endEpochNanos - root.startEpochNanos());
		if (!root.isForced() && !this.protectedRoots.worthConsidering(name, error, duration)) {
			return;
		}
		List<SpanRecord> released = new ArrayList<>();
		this.evicting.lock();
		try {
			if (root.isEvicted()) {
				return;
			}
			long[] spansAndBytes = new long[2];
			countGroup(root, spansAndBytes);
			int spans = (int) spansAndBytes[0];
			long bytes = (long) spans * SpanProfileStore.BYTES_PER_SPAN + spansAndBytes[1];
			if (this.protectedRoots.consider(root, name, error, duration, endEpochNanos, spans, bytes, released)) {
				this.rootsInStartOrder.remove(root);
				chargeGroup(root, this.protectedRoots.account());
				this.protectedRoots.releaseBeyondShare(released);
			}
			demote(released);
		}
		finally {
			this.evicting.unlock();
		}
	}

	private static void countGroup(SpanRecord record, long[] spansAndBytes) {
		spansAndBytes[0]++;
		spansAndBytes[1] += record.ownSampleBytes();
		for (SpanRecord child : record.children()) {
			countGroup(child, spansAndBytes);
		}
	}

	/**
	 * Requests no longer protected become ordinary ones again, at the old end of the
	 * eviction order: they are past their window or outranked, so the first to go when
	 * room is needed.
	 */
	private void demote(List<SpanRecord> released) {
		for (SpanRecord root : released) {
			if (!root.isEvicted()) {
				this.rootsInStartOrder.addFirst(root);
			}
		}
	}

	/**
	 * A request no longer protected: its samples are the store's again, at once, so that
	 * the protected share reads what is left while it decides whether to release more.
	 */
	private void chargeToStore(SpanRecord root) {
		chargeGroup(root, this.storedSampleBytes);
	}

	/**
	 * Charge a request's samples to {@code account}, span by span, parents first: a child
	 * that joins meanwhile takes its parent's account as it joins, or is among the
	 * children read after the parent moved.
	 */
	private static void chargeGroup(SpanRecord record, AtomicLong account) {
		record.chargeTo(account);
		for (SpanRecord child : record.children()) {
			chargeGroup(child, account);
		}
	}

	/**
	 * A span joined a request that may be protected, after it was judged: it counts
	 * against the protected share if the request still is.
	 */
	void joined(SpanRecord root) {
		this.protectedRoots.joined(root);
	}

	/** Whether protected requests hold more than their half now, without the lock. */
	boolean protectedOverShare() {
		return this.protectedRoots.overShare();
	}

	/** What the samples of protected requests hold. */
	long protectedSampleBytes() {
		return this.protectedRoots.account().get();
	}

	int protectedCount() {
		return this.protectedRoots.size();
	}

	long evictedSpans() {
		return this.evictedSpans.sum();
	}

	/** Let the awaiting requests whose profile is complete go. */
	void releaseComplete() {
		this.evicting.lock();
		try {
			this.finished.releaseComplete();
		}
		finally {
			this.evicting.unlock();
		}
	}

	/**
	 * Drop the oldest requests, once the store is over its bounds, until it is a
	 * sixty-fourth under them, unless another thread is at it. Requests dropped only
	 * change state ({@link FinishedRequests}): this may run on a request thread, which
	 * must not fold profiles, write log lines or export.
	 */
	void evictIfNeeded() {
		if (!this.evicting.tryLock()) {
			return;
		}
		try {
			List<SpanRecord> released = new ArrayList<>();
			this.protectedRoots.expire(this.clock.getAsLong(), released);
			// Samples joined since they were judged may have taken them past their share.
			this.protectedRoots.releaseBeyondShare(released);
			demote(released);
			dropOldest(true);
			// Memory still short: requests awaiting their samples go with what they have,
			// oldest first.
			while (this.bytes.getAsLong() > this.settings.maxBytes() && !this.finished.noneAwaiting()) {
				this.finished.dropOldestAwaiting();
			}
			// Last resort, for memory only: nothing ordinary is left to drop. Running
			// requests beyond max-spans are bounded below (at twice the limit) and
			// releasing kept requests would not make room for them, so a burst of
			// requests in flight does not cost the kept ones.
			while (this.bytes.getAsLong() > this.settings.maxBytes()) {
				SpanRecord kept = this.protectedRoots.releaseOldest();
				if (kept == null) {
					break;
				}
				drop(kept);
			}
			if (this.spans.size() >= 2 * this.settings.maxSpans()) {
				dropOldest(false);
			}
		}
		finally {
			this.evicting.unlock();
		}
	}

	private void dropOldest(boolean finishedOnly) {
		if (!overBudget(finishedOnly)) {
			return;
		}
		Iterator<SpanRecord> roots = this.rootsInStartOrder.iterator();
		while (roots.hasNext() && aboveWhereAPassStops(finishedOnly)) {
			SpanRecord root = roots.next();
			if (finishedOnly && root.inFlight()) {
				continue;
			}
			// Short of memory, a request awaiting its samples goes before a stored one
			// that would go without its own: the same loss, and the stored one stays in
			// the views. A complete one goes first: it loses none.
			while (finishedOnly && this.finished.awaitsSamples(root)
					&& this.bytes.getAsLong() > this.settings.maxBytes() && !this.finished.noneAwaiting()) {
				this.finished.dropOldestAwaiting();
			}
			if (!aboveWhereAPassStops(finishedOnly)) {
				break;
			}
			roots.remove();
			drop(root);
		}
	}

	/**
	 * Take a request out of the store. One that ended after the samples joined so far
	 * awaits the rest, if there is room and waiting frees what is short (a count, not
	 * memory: its bytes stay); any other goes now.
	 */
	private void drop(SpanRecord root) {
		this.evictedSpans.add(groupSize(root));
		boolean incomplete = this.finished.awaitsSamples(root);
		if (incomplete && this.finished.hasRoom() && this.bytes.getAsLong() <= this.settings.maxBytes()) {
			this.finished.await(root, this.spans);
			return;
		}
		if (incomplete) {
			this.finished.droppedIncomplete();
		}
		else if (root.inFlight()) {
			this.finished.droppedRunning();
		}
		removeGroup(root);
	}

	private boolean overBudget(boolean finishedOnly) {
		int limit = finishedOnly ? this.settings.maxSpans() : 2 * this.settings.maxSpans() - 1;
		return this.spans.size() > limit || this.bytes.getAsLong() > this.settings.maxBytes();
	}

	private boolean aboveWhereAPassStops(boolean finishedOnly) {
		if (!finishedOnly) {
			return overBudget(false);
		}
		return this.spans.size() > this.spansAfterPass || this.bytes.getAsLong() > this.bytesAfterPass;
	}

	private static int groupSize(SpanRecord record) {
		int size = 1;
		for (SpanRecord child : record.children()) {
			size += groupSize(child);
		}
		return size;
	}

	private void removeGroup(SpanRecord record) {
		record.evict();
		this.spans.remove(record.spanId(), record);
		for (SpanRecord child : record.children()) {
			removeGroup(child);
		}
	}

}
