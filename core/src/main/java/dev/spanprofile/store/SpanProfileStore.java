package dev.spanprofile.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;

/**
 * The spans of recent requests with their samples, bounded in count and memory.
 * <p>
 * Spans are grouped by local root (one request in this process): a group is kept or dropped whole, so a parent's
 * inclusive flame graph never silently loses a child's samples. Finished groups are dropped oldest first; running
 * ones only when the count reaches twice the limit (spans that never end must not grow the store forever).
 * <p>
 * A few finished requests are kept longer, within the same bounds: per span name the slowest, and the latest failed
 * ones (see {@link RetentionSettings}). They are not in the eviction order of recent requests; they go when their
 * retention ends, when slower ones outrank them, or, as a last resort, when the store has nothing else to drop.
 * <p>
 * A request dropped before the collection cycle that joins its last samples would lose them (on a busy application
 * most requests do: they leave the store within one dump interval). Until its profile is complete it waits out of
 * sight: no view lists it, but the attributor still finds it and its samples still land, and it is handed to the
 * listeners of completed requests with its whole profile. At most {@code max-spans} requests wait, and their bytes
 * count against the same memory bound; beyond either, a dropped request goes at once with what it has.
 */
public final class SpanProfileStore {

	/**
	 * Rough heap cost of a span's metadata, for the memory budget: the record, its attributes and its
	 * {@link SpanRecordRef} (the memory benchmark measured 311 bytes per stored span with samples before the
	 * reference, 335 after).
	 */
	static final int BYTES_PER_SPAN = 344;

	/** The frame table may take at most this fraction (1/n) of the memory budget. */
	static final int FRAME_TABLE_SHARE = 4;

	private final StoreSettings settings;

	private final FrameTable frames;

	private final Map<String, SpanRecord> spans = new ConcurrentHashMap<>();

	private final ConcurrentLinkedDeque<SpanRecord> rootsInStartOrder = new ConcurrentLinkedDeque<>();

	private final AtomicLong sampleBytes = new AtomicLong();

	private final ReentrantLock evicting = new ReentrantLock();

	private final LongAdder evictedSpans = new LongAdder();

	/** Spans of dropped requests still awaiting samples, by id: found by the attributor, listed by no view. */
	private final Map<String, SpanRecord> awaiting = new ConcurrentHashMap<>();

	/** Their local roots, in the order they were dropped. Guarded by {@link #evicting}. */
	private final ArrayDeque<SpanRecord> awaitingRoots = new ArrayDeque<>();

	/** The size of {@link #awaitingRoots}, for readers without the lock (metrics). */
	private volatile int awaitingCount;

	private final AtomicLong awaitingBytes = new AtomicLong();

	private final LongAdder droppedIncomplete = new LongAdder();

	/**
	 * Span end (epoch nanoseconds) up to which samples have been joined. Until a profiler says, every profile counts
	 * as complete: a store nobody joins samples for has nothing to wait for.
	 */
	private volatile long profilesCompleteUpTo = Long.MAX_VALUE;


	private final ProtectedRoots protectedRoots;

	private final LongSupplier clock;

	private volatile Consumer<SpanRecord> rootDropped = (root) -> {
	};

	/** A store whose retention window follows the end times of the spans it is given. */
	public SpanProfileStore(StoreSettings settings) {
		this(settings, () -> 0);
	}

	/**
	 * @param clock epoch nanoseconds now, on the spans' clock: retention windows end by it even when no span ends
	 */
	public SpanProfileStore(StoreSettings settings, LongSupplier clock) {
		this.settings = settings;
		// Frame names are shared by all spans and cannot be evicted with them: they get a fixed share of the budget.
		this.frames = new FrameTable(settings.maxBytes() / FRAME_TABLE_SHARE);
		this.clock = clock;
		// Protected requests get at most half of the bounds: the recent ones always keep the other half (a store of
		// one span keeps none).
		this.protectedRoots = new ProtectedRoots(settings.retention(), settings.maxSpans() / 2,
				settings.maxBytes() / 2);
	}

	public StoreSettings settings() {
		return this.settings;
	}

	public FrameTable frames() {
		return this.frames;
	}

	/** Called with each local root the store drops to stay within its bounds, just before it goes. */
	public void onRootDropped(Consumer<SpanRecord> listener) {
		this.rootDropped = listener;
	}

	/**
	 * A span started. {@code parentSpanId} is null for a trace root; {@code parentIsLocal} tells whether the parent
	 * runs in this process (a remote parent makes this span a local root).
	 */
	public SpanRecord spanStarted(String traceId, String spanId, String parentSpanId, boolean parentIsLocal,
			String name, String kind, long startEpochNanos, String threadName) {
		SpanRecord parent = (parentIsLocal && parentSpanId != null) ? this.spans.get(parentSpanId) : null;
		SpanRecord record = new SpanRecord(traceId, spanId, parentSpanId, parent, name, kind, startEpochNanos,
				threadName, this.sampleBytes);
		this.spans.put(spanId, record);
		if (parent != null) {
			parent.addChild(record);
		}
		else {
			this.rootsInStartOrder.add(record);
		}
		// Span metadata counts against the memory budget too: many small spans must not wait for a sample to be evicted.
		if (this.spans.size() > this.settings.maxSpans() || approximateBytes() > this.settings.maxBytes()) {
			evictIfNeeded();
		}
		return record;
	}

	/**
	 * A span ended. {@code excluded} drops it (and, for a local root, its whole request) from the store, as for
	 * requests to the actuator itself.
	 */
	public void spanEnded(String spanId, String name, String status, long endEpochNanos, boolean excluded) {
		SpanRecord record = this.spans.get(spanId);
		if (record == null) {
			SpanRecord waiting = this.awaiting.get(spanId);
			if (waiting != null) {
				// A descendant of a dropped request: kept for its samples only, so only its end matters.
				waiting.ended(name, status, endEpochNanos);
			}
			return;
		}
		if (record.isLocalRoot() && !excluded) {
			// Before it is marked ended: until then no eviction pass takes it, so it cannot go while being judged.
			retain(record, (name != null) ? name : record.name(), "ERROR".equals(status), endEpochNanos);
		}
		record.ended(name, status, endEpochNanos);
		if (excluded && record.isLocalRoot()) {
			this.rootsInStartOrder.remove(record);
			removeGroup(record);
		}
	}

	private void retain(SpanRecord root, String name, boolean error, long endEpochNanos) {
		long duration = Math.max(0, endEpochNanos - root.startEpochNanos());
		if (!this.protectedRoots.worthConsidering(name, error, duration)) {
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
			long bytes = (long) spans * BYTES_PER_SPAN + spansAndBytes[1];
			if (this.protectedRoots.consider(root, name, error, duration, endEpochNanos, spans, bytes,
					released)) {
				this.rootsInStartOrder.remove(root);
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
	 * Requests no longer protected become ordinary ones again, at the old end of the eviction order: they are past
	 * their window or outranked, so the first to go when room is needed.
	 */
	private void demote(List<SpanRecord> released) {
		for (SpanRecord root : released) {
			if (!root.isEvicted()) {
				this.rootsInStartOrder.addFirst(root);
			}
		}
	}

	/** Local roots kept as slow or failed requests (for tests and diagnostics). */
	public int protectedCount() {
		return this.protectedRoots.size();
	}

	/** The span with this id, or {@code null}. */
	public SpanRecord find(String spanId) {
		return this.spans.get(spanId);
	}

	/**
	 * The span with this id, stored or dropped but still awaiting its samples, or {@code null}: where samples and the
	 * span's end go. Views use {@link #find}.
	 */
	public SpanRecord findTracked(String spanId) {
		SpanRecord record = this.spans.get(spanId);
		return (record != null) ? record : this.awaiting.get(spanId);
	}

	/**
	 * Samples up to {@code epochNanos} have been joined: dropped requests that ended by then have their whole
	 * profile, and leave (handed to the drop listener, which passes on only what it did not have yet).
	 */
	public void profilesCompleteUpTo(long epochNanos) {
		this.profilesCompleteUpTo = epochNanos;
		if (this.awaiting.isEmpty()) {
			return;
		}
		List<SpanRecord> complete = new ArrayList<>();
		this.evicting.lock();
		try {
			for (Iterator<SpanRecord> roots = this.awaitingRoots.iterator(); roots.hasNext();) {
				SpanRecord root = roots.next();
				if (root.endEpochNanos() <= epochNanos) {
					roots.remove();
					forgetAwaiting(root);
					complete.add(root);
				}
			}
			this.awaitingCount = this.awaitingRoots.size();
		}
		finally {
			this.evicting.unlock();
		}
		for (SpanRecord root : complete) {
			this.rootDropped.accept(root);
		}
	}

	/** Local spans of one trace, oldest first. */
	public List<SpanRecord> trace(String traceId) {
		List<SpanRecord> result = new ArrayList<>();
		for (SpanRecord record : this.spans.values()) {
			if (record.traceId().equals(traceId)) {
				result.add(record);
			}
		}
		result.sort(Comparator.comparingLong(SpanRecord::startEpochNanos));
		return result;
	}

	/**
	 * Spans matching {@code filter}, newest first, at most {@code limit}. With root-span-only attribution only
	 * local roots are listed, since only they carry samples.
	 */
	public List<SpanRecord> recent(Predicate<SpanRecord> filter, int limit) {
		List<SpanRecord> result = new ArrayList<>();
		for (SpanRecord record : this.spans.values()) {
			if ((!this.settings.rootSpanOnly() || record.isLocalRoot()) && filter.test(record)) {
				result.add(record);
			}
		}
		result.sort(Comparator.comparingLong(SpanRecord::startEpochNanos).reversed());
		return (result.size() > limit) ? new ArrayList<>(result.subList(0, limit)) : result;
	}

	/** Add one sample of {@code kind} to {@code record}. */
	public void addSample(SpanRecord record, SampleKind kind, int[] rootFirstStack, long weight) {
		if (record.addSample(kind, rootFirstStack, weight) && approximateBytes() > this.settings.maxBytes()) {
			evictIfNeeded();
		}
	}

	/**
	 * Add one sample of {@code kind} to {@code record}, taken at {@code epochNanos} on thread {@code threadId}
	 * (named {@code threadName} when known), placing it on the span's timeline too.
	 */
	public void addSample(SpanRecord record, SampleKind kind, int[] rootFirstStack, long weight, long epochNanos,
			long threadId, String threadName) {
		if (record.addSample(kind, rootFirstStack, weight, epochNanos, threadId, threadName)
				&& approximateBytes() > this.settings.maxBytes()) {
			evictIfNeeded();
		}
	}

	public int size() {
		return this.spans.size();
	}

	/**
	 * Approximate heap held by stored spans, their samples and the frame names they share, and by dropped requests
	 * awaiting their samples.
	 */
	public long approximateBytes() {
		return this.sampleBytes.get() + this.awaitingBytes.get()
				+ (long) (this.spans.size() + this.awaiting.size()) * BYTES_PER_SPAN + this.frames.approximateBytes();
	}

	/** Dropped requests (local roots) awaiting their samples now: at most {@code max-spans}. */
	public int awaitingSamples() {
		return this.awaitingCount;
	}

	/**
	 * Finished requests dropped before all their samples were joined, and with no room to await them: handed to the
	 * listeners of completed requests (span-name aggregates, slow-span log, OTLP export) with samples missing.
	 */
	public long droppedIncomplete() {
		return this.droppedIncomplete.sum();
	}

	/**
	 * Spans dropped to keep the store within its bounds since it was created (not counting requests left out on
	 * purpose, such as those to the actuator).
	 */
	public long evictedSpans() {
		return this.evictedSpans.sum();
	}

	/** Drop the oldest requests until the store is within its bounds. */
	public void evictIfNeeded() {
		if (!this.evicting.tryLock()) {
			return;
		}
		List<SpanRecord> dropped = new ArrayList<>();
		try {
			List<SpanRecord> expired = new ArrayList<>();
			this.protectedRoots.expire(this.clock.getAsLong(), expired);
			demote(expired);
			dropOldest(true, dropped);
			// Memory still short: requests awaiting their samples go with what they have, oldest first.
			while (approximateBytes() > this.settings.maxBytes() && !this.awaitingRoots.isEmpty()) {
				handOffOldestAwaiting(dropped);
			}
			// Last resort, for memory only: nothing ordinary is left to drop. Running requests beyond max-spans are
			// bounded below (at twice the limit) and releasing kept requests would not make room for them, so a burst
			// of requests in flight does not cost the kept ones.
			while (approximateBytes() > this.settings.maxBytes()) {
				SpanRecord kept = this.protectedRoots.releaseOldest();
				if (kept == null) {
					break;
				}
				drop(kept, dropped);
			}
			if (this.spans.size() >= 2 * this.settings.maxSpans()) {
				dropOldest(false, dropped);
			}
		}
		finally {
			this.evicting.unlock();
		}
		// Outside the lock: listeners fold profiles and write log lines, and this may run on a request thread.
		for (SpanRecord root : dropped) {
			this.rootDropped.accept(root);
		}
	}

	private void dropOldest(boolean finishedOnly, List<SpanRecord> dropped) {
		Iterator<SpanRecord> roots = this.rootsInStartOrder.iterator();
		while (roots.hasNext() && overBudget(finishedOnly)) {
			SpanRecord root = roots.next();
			if (finishedOnly && root.inFlight()) {
				continue;
			}
			// Short of memory, a request awaiting its samples goes before a stored one that would go without its
			// own: the same loss, and the stored one stays in the views. A complete one goes first: it loses none.
			while (finishedOnly && awaitsSamples(root) && approximateBytes() > this.settings.maxBytes()
					&& !this.awaitingRoots.isEmpty()) {
				handOffOldestAwaiting(dropped);
			}
			if (!overBudget(finishedOnly)) {
				break;
			}
			roots.remove();
			drop(root, dropped);
		}
	}

	/** Whether samples up to the end of this finished request may still be unjoined. */
	private boolean awaitsSamples(SpanRecord root) {
		return !root.inFlight() && root.endEpochNanos() > this.profilesCompleteUpTo;
	}

	private void handOffOldestAwaiting(List<SpanRecord> dropped) {
		SpanRecord waiting = this.awaitingRoots.pollFirst();
		this.awaitingCount = this.awaitingRoots.size();
		forgetAwaiting(waiting);
		this.droppedIncomplete.increment();
		dropped.add(waiting);
	}

	/**
	 * Take a request out of the store. One that ended after the samples joined so far awaits the rest, if there is
	 * room and waiting frees what is short (a count, not memory: its bytes stay); any other goes now, in
	 * {@code dropped}.
	 */
	private void drop(SpanRecord root, List<SpanRecord> dropped) {
		this.evictedSpans.add(groupSize(root));
		boolean incomplete = awaitsSamples(root);
		if (incomplete && this.awaitingRoots.size() < this.settings.maxSpans()
				&& approximateBytes() <= this.settings.maxBytes()) {
			this.awaitingRoots.addLast(root);
			this.awaitingCount = this.awaitingRoots.size();
			awaitGroup(root);
			return;
		}
		if (incomplete) {
			this.droppedIncomplete.increment();
		}
		dropped.add(root);
		removeGroup(root);
	}

	private void awaitGroup(SpanRecord record) {
		// Findable in one map or the other at every moment: the attributor must not miss it in between.
		this.awaiting.put(record.spanId(), record);
		record.awaitSamples(this.awaitingBytes);
		this.spans.remove(record.spanId(), record);
		for (SpanRecord child : record.children()) {
			awaitGroup(child);
		}
	}

	private void forgetAwaiting(SpanRecord record) {
		record.evict();
		this.awaiting.remove(record.spanId(), record);
		for (SpanRecord child : record.children()) {
			forgetAwaiting(child);
		}
	}

	private boolean overBudget(boolean finishedOnly) {
		int limit = finishedOnly ? this.settings.maxSpans() : 2 * this.settings.maxSpans() - 1;
		return this.spans.size() > limit || approximateBytes() > this.settings.maxBytes();
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
