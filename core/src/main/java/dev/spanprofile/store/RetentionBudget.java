package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The store's budget ({@code max-spans}, {@code max-memory}) and the one place that
 * decides which requests leave to stay within it. A request (a local root with its
 * descendants) is kept or dropped whole, so that a parent's flame graph never silently
 * loses a child's samples.
 * <p>
 * Two kinds of stored request share the budget. <b>Recent</b> ones go oldest first:
 * finished ones once the store is over its bounds, running ones only at twice
 * {@code max-spans} (spans that never end must not grow the store forever).
 * <b>Protected</b> ones, the slowest and failed ones and those their callers asked for
 * ({@link ProtectionSlots} ranks them), are out of that order for the retention window
 * and hold at most half of both bounds, so that recent requests always have the other
 * half. A protected request released (its window over, outranked, or over the half) is an
 * ordinary old one again, the first to go when room is needed.
 * <p>
 * Why the half is kept as samples arrive, not when a request is judged: a request is
 * judged as it ends, but the collector joins most of its samples a dump interval later.
 * So the samples of protected requests, those they hold and those joined later (to their
 * descendants too), are charged to an account of their own, which
 * {@link #protectedOverShare()} reads as each sample is added; the requests protected
 * longest ago are then released until the rest fit. Each release moves its request's
 * charge back at once, so it is measured by all the memory it frees, not by its spans
 * alone.
 * <p>
 * A dropped request still missing samples awaits them in {@link FinishedRequests} if it
 * has room; dropping only changes a request's state, so a request thread that evicts
 * never folds profiles, writes log lines or exports.
 * <p>
 * Threads: one lock ({@link #evicting}) guards every pass; request threads only try it,
 * leaving the work to the thread that holds it, which checks the protected share again
 * once it lets go, so that a sample added meanwhile is not left over the half. The
 * protected requests are guarded by this object's monitor as well, for the two calls that
 * run outside a pass and must not wait for one: {@link #judge}'s first look and
 * {@link #joined}.
 */
final class RetentionBudget {

	private final Map<String, SpanRecord> spans;

	private final LongSupplier bytes;

	private final LongSupplier clock;

	private final FinishedRequests finished;

	/** What the samples of recent requests hold. */
	private final AtomicLong recentSampleBytes = new AtomicLong();

	/** What the samples of protected requests hold, joined before or after they ended. */
	private final AtomicLong protectedSampleBytes = new AtomicLong();

	/** Recent local roots in the order they started: the eviction order. */
	private final ConcurrentLinkedDeque<SpanRecord> recentInStartOrder = new ConcurrentLinkedDeque<>();

	private final ReentrantLock evicting = new ReentrantLock();

	private final LongAdder evictedSpans = new LongAdder();

	private final Bounds bounds;

	/** Running requests go only beyond these: twice {@code max-spans}. */
	private final Bounds runningBounds;

	private final Bounds whereAPassStops;

	private final Bounds protectedHalf;

	private final long window;

	/** Guarded by this. */
	private final ProtectionSlots<Held> slots;

	/** Every protected request, in the order it was protected. Guarded by this. */
	private final LinkedHashMap<SpanRecord, Held> protectedInOrder = new LinkedHashMap<>();

	/** Spans of the protected requests; written under this object's monitor. */
	private volatile long protectedSpans;

	/** The latest end seen, so that windows end by the spans' own clock too. */
	private long latestEndEpochNanos;

	private long nextExpiryEpochNanos = Long.MAX_VALUE;

	/**
	 * @param spans the store's spans by id, which requests leave
	 * @param bytes the store's memory estimate now
	 * @param clock epoch nanoseconds now, for the end of retention windows
	 */
	RetentionBudget(StoreSettings settings, Map<String, SpanRecord> spans, LongSupplier bytes, LongSupplier clock,
			FinishedRequests finished) {
		this.spans = spans;
		this.bytes = bytes;
		this.clock = clock;
		this.finished = finished;
		this.bounds = new Bounds(settings.maxSpans(), settings.maxBytes());
		this.runningBounds = new Bounds(2L * settings.maxSpans() - 1, settings.maxBytes());
		this.whereAPassStops = this.bounds.whereAPassStops();
		this.protectedHalf = this.bounds.half();
		this.window = settings.retention().window().toNanos();
		this.slots = new ProtectionSlots<>(settings.retention());
	}

	/** The account a new request's samples are charged to: a recent one's. */
	AtomicLong recentAccount() {
		return this.recentSampleBytes;
	}

	/** A local root started: last in the eviction order. */
	void started(SpanRecord root) {
		this.recentInStartOrder.add(root);
	}

	/** A request left out on purpose (say, to the actuator) goes now, unseen. */
	void excluded(SpanRecord root) {
		this.recentInStartOrder.remove(root);
		forEachInGroup(root, this::unstore);
	}

	/**
	 * A request is about to be marked ended: protect it if it earns a slot and fits in
	 * the half. Before it is marked: until then no pass takes it, so it cannot go while
	 * being judged.
	 */
	void judge(SpanRecord root, String name, boolean error, long endEpochNanos) {
		long duration = Math.max(0, endEpochNanos - root.startEpochNanos());
		if (!root.isForced() && !mightProtect(name, error, duration)) {
			return;
		}
		List<SpanRecord> released = new ArrayList<>();
		this.evicting.lock();
		try {
			if (!root.isEvicted()) {
				protect(root, name, error, duration, endEpochNanos, released);
				demote(released);
			}
		}
		finally {
			this.evicting.unlock();
		}
	}

	private synchronized boolean mightProtect(String name, boolean error, long durationNanos) {
		return this.slots.mightTake(name, error, durationNanos);
	}

	private synchronized void protect(SpanRecord root, String name, boolean error, long duration, long end,
			List<SpanRecord> released) {
		this.latestEndEpochNanos = Math.max(this.latestEndEpochNanos, end);
		long[] spansAndBytes = new long[2];
		forEachInGroup(root, (record) -> {
			spansAndBytes[0]++;
			spansAndBytes[1] += record.ownSampleBytes();
		});
		int groupSpans = (int) spansAndBytes[0];
		if (this.protectedHalf.exceededBy(groupSpans,
				groupSpans * (long) SpanProfileStore.BYTES_PER_SPAN + spansAndBytes[1])) {
			// Keeping it would release every other protected request and still not fit.
			return;
		}
		Held candidate = new Held(root, duration, end, groupSpans);
		List<Held> changed = new ArrayList<>();
		boolean kept = this.slots.take(candidate, name, error, changed);
		if (kept) {
			this.recentInStartOrder.remove(root);
			this.protectedInOrder.put(root, candidate);
			this.protectedSpans += groupSpans;
			root.retainedAs(candidate.reason());
			forEachInGroup(root, (record) -> record.chargeTo(this.protectedSampleBytes));
			this.nextExpiryEpochNanos = Math.min(this.nextExpiryEpochNanos, end + this.window);
		}
		for (Held outranked : changed) {
			if (outranked.holdsASlot()) {
				outranked.root.retainedAs(outranked.reason());
			}
			else {
				release(outranked, released);
			}
		}
		releaseBeyondShare(released);
	}

	/**
	 * A span joined a request that may be protected, after it was judged (an asynchronous
	 * child of a finished request): it counts against the half if the request still is.
	 */
	synchronized void joined(SpanRecord root) {
		Held held = this.protectedInOrder.get(root);
		if (held != null) {
			held.spans++;
			this.protectedSpans++;
		}
	}

	/** Whether protected requests hold more than their half now, without a lock. */
	boolean protectedOverShare() {
		long spans = this.protectedSpans;
		return this.protectedHalf.exceededBy(spans,
				spans * SpanProfileStore.BYTES_PER_SPAN + this.protectedSampleBytes.get());
	}

	/** What the samples of stored requests hold, recent and protected. */
	long sampleBytes() {
		return this.recentSampleBytes.get() + this.protectedSampleBytes.get();
	}

	synchronized int protectedCount() {
		return this.protectedInOrder.size();
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
	 * Release what is due and drop the oldest requests, once the store is over its
	 * bounds, until it is a sixty-fourth under them, unless another thread is at it.
	 */
	void evictIfNeeded() {
		do {
			if (!this.evicting.tryLock()) {
				return;
			}
			try {
				pass();
			}
			finally {
				this.evicting.unlock();
			}
		}
		// While protected requests are over their half, each pass releases one at least;
		// with none left they hold nothing, so this ends.
		while (this.protectedSpans > 0 && protectedOverShare());
	}

	private void pass() {
		List<SpanRecord> released = new ArrayList<>();
		expire(this.clock.getAsLong(), released);
		// Samples joined since they were judged may have taken them past their half.
		releaseBeyondShare(released);
		demote(released);
		dropOldest(true);
		// Memory still short: requests awaiting their samples go with what they have,
		// oldest first.
		while (memoryShort() && !this.finished.noneAwaiting()) {
			this.finished.dropOldestAwaiting();
		}
		// Last resort, for memory only: nothing ordinary is left to drop. Running
		// requests beyond max-spans are bounded below (at twice the limit) and releasing
		// protected requests would not make room for them, so a burst of requests in
		// flight does not cost the protected ones.
		while (memoryShort()) {
			SpanRecord kept = releaseOldest();
			if (kept == null) {
				break;
			}
			drop(kept);
		}
		if (this.spans.size() > this.runningBounds.spans()) {
			dropOldest(false);
		}
	}

	private synchronized void expire(long nowEpochNanos, List<SpanRecord> released) {
		long now = Math.max(nowEpochNanos, this.latestEndEpochNanos);
		if (now < this.nextExpiryEpochNanos) {
			return;
		}
		long next = Long.MAX_VALUE;
		for (Held held : new ArrayList<>(this.protectedInOrder.values())) {
			if (held.endNanos + this.window <= now) {
				release(held, released);
			}
			else {
				next = Math.min(next, held.endNanos + this.window);
			}
		}
		this.nextExpiryEpochNanos = next;
	}

	/** Release the requests protected longest ago while the rest hold more than half. */
	private synchronized void releaseBeyondShare(List<SpanRecord> released) {
		while (!this.protectedInOrder.isEmpty() && protectedOverShare()) {
			release(this.protectedInOrder.values().iterator().next(), released);
		}
	}

	/** The request protected longest ago, released; {@code null} if none. */
	private synchronized SpanRecord releaseOldest() {
		if (this.protectedInOrder.isEmpty()) {
			return null;
		}
		Held oldest = this.protectedInOrder.values().iterator().next();
		release(oldest, new ArrayList<>());
		return oldest.root;
	}

	/** Under this object's monitor: a protected request is an ordinary one again. */
	private void release(Held held, List<SpanRecord> released) {
		this.slots.vacate(held);
		if (this.protectedInOrder.remove(held.root, held)) {
			this.protectedSpans -= held.spans;
			forEachInGroup(held.root, (record) -> record.chargeTo(this.recentSampleBytes));
			released.add(held.root);
		}
		held.root.retainedAs(RetainedAs.RECENT);
	}

	/**
	 * Released requests join the recent ones at the old end of the eviction order: they
	 * are past their window or outranked, so the first to go when room is needed.
	 */
	private void demote(List<SpanRecord> released) {
		for (SpanRecord root : released) {
			if (!root.isEvicted()) {
				this.recentInStartOrder.addFirst(root);
			}
		}
	}

	/**
	 * Drop the oldest recent requests, finished ones once the store is over its bounds
	 * (down to where a pass stops), or any while it is over {@link #runningBounds}.
	 */
	private void dropOldest(boolean finishedOnly) {
		Bounds stopAt = finishedOnly ? this.whereAPassStops : this.runningBounds;
		if (!over(finishedOnly ? this.bounds : this.runningBounds)) {
			return;
		}
		Iterator<SpanRecord> roots = this.recentInStartOrder.iterator();
		while (roots.hasNext() && over(stopAt)) {
			SpanRecord root = roots.next();
			if (finishedOnly && root.inFlight()) {
				continue;
			}
			// Short of memory, a request awaiting its samples goes before a stored one
			// that would go without its own: the same loss, and the stored one stays in
			// the views. A complete one goes first: it loses none.
			while (finishedOnly && this.finished.awaitsSamples(root) && memoryShort()
					&& !this.finished.noneAwaiting()) {
				this.finished.dropOldestAwaiting();
			}
			if (!over(stopAt)) {
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
		int[] groupSpans = new int[1];
		forEachInGroup(root, (record) -> groupSpans[0]++);
		this.evictedSpans.add(groupSpans[0]);
		boolean incomplete = this.finished.awaitsSamples(root);
		if (incomplete && this.finished.hasRoom() && !memoryShort()) {
			this.finished.await(root, this.spans);
			return;
		}
		if (incomplete) {
			this.finished.droppedIncomplete();
		}
		else if (root.inFlight()) {
			this.finished.droppedRunning();
		}
		forEachInGroup(root, this::unstore);
	}

	private boolean over(Bounds limit) {
		return limit.exceededBy(this.spans.size(), this.bytes.getAsLong());
	}

	private boolean memoryShort() {
		return this.bytes.getAsLong() > this.bounds.bytes();
	}

	/** Marked evicted before it leaves the index, so a child starting now is refused. */
	private void unstore(SpanRecord record) {
		record.evict();
		this.spans.remove(record.spanId(), record);
	}

	/**
	 * {@code action} on every span of a request, parents before their children: a walk
	 * that marks or moves a parent before it reads its children reaches every child, or
	 * the child, refused by the parent, stands alone.
	 */
	private static void forEachInGroup(SpanRecord record, Consumer<SpanRecord> action) {
		action.accept(record);
		for (SpanRecord child : record.children()) {
			forEachInGroup(child, action);
		}
	}

	/** A protected request's claim, with the spans it counts against the half. */
	private static final class Held extends ProtectionSlots.Claim {

		final SpanRecord root;

		/** Guarded by the budget's monitor. */
		int spans;

		Held(SpanRecord root, long durationNanos, long endEpochNanos, int spans) {
			super(durationNanos, endEpochNanos, root.isForced());
			this.root = root;
			this.spans = spans;
		}

	}

}
