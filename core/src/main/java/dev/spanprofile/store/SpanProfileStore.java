package dev.spanprofile.store;

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
import java.util.function.Predicate;

import dev.spanprofile.sampling.SampleKind;

/**
 * The spans of recent requests with their samples, bounded in count and memory.
 * <p>
 * Spans are grouped by local root (one request in this process): a group is kept or dropped whole, so a parent's
 * inclusive flame graph never silently loses a child's samples. Finished groups are dropped oldest first; running
 * ones only when the count reaches twice the limit (spans that never end must not grow the store forever).
 */
public final class SpanProfileStore {

	/** Rough heap cost of a span's metadata, for the memory budget. */
	static final int BYTES_PER_SPAN = 320;

	private final StoreSettings settings;

	private final FrameTable frames = new FrameTable();

	private final Map<String, SpanRecord> spans = new ConcurrentHashMap<>();

	private final ConcurrentLinkedDeque<SpanRecord> rootsInStartOrder = new ConcurrentLinkedDeque<>();

	private final AtomicLong sampleBytes = new AtomicLong();

	private final ReentrantLock evicting = new ReentrantLock();

	private final LongAdder evictedSpans = new LongAdder();

	public SpanProfileStore(StoreSettings settings) {
		this.settings = settings;
	}

	public StoreSettings settings() {
		return this.settings;
	}

	public FrameTable frames() {
		return this.frames;
	}

	/**
	 * A span started. {@code parentSpanId} is null for a trace root; {@code parentIsLocal} tells whether the parent
	 * runs in this process (a remote parent makes this span a local root).
	 */
	public SpanRecord spanStarted(String traceId, String spanId, String parentSpanId, boolean parentIsLocal,
			String name, String kind, long startEpochNanos, String threadName) {
		SpanRecord parent = (parentIsLocal && parentSpanId != null) ? this.spans.get(parentSpanId) : null;
		SpanRecord record = new SpanRecord(traceId, spanId, parentSpanId, parent, name, kind, startEpochNanos,
				threadName);
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
			return;
		}
		record.ended(name, status, endEpochNanos);
		if (excluded && record.isLocalRoot()) {
			this.rootsInStartOrder.remove(record);
			removeGroup(record);
		}
	}

	/** The span with this id, or {@code null}. */
	public SpanRecord find(String spanId) {
		return this.spans.get(spanId);
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
		if (record.isEvicted()) {
			return;
		}
		int newNodes = record.addSample(kind, rootFirstStack, weight);
		if (newNodes > 0 && this.sampleBytes.addAndGet((long) newNodes * StackTree.BYTES_PER_NODE)
				+ (long) this.spans.size() * BYTES_PER_SPAN > this.settings.maxBytes()) {
			evictIfNeeded();
		}
	}

	public int size() {
		return this.spans.size();
	}

	/** Approximate heap held by stored spans and their samples. */
	public long approximateBytes() {
		return this.sampleBytes.get() + (long) this.spans.size() * BYTES_PER_SPAN;
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
		try {
			dropOldest(true);
			if (this.spans.size() >= 2 * this.settings.maxSpans()) {
				dropOldest(false);
			}
		}
		finally {
			this.evicting.unlock();
		}
	}

	private void dropOldest(boolean finishedOnly) {
		Iterator<SpanRecord> roots = this.rootsInStartOrder.iterator();
		while (roots.hasNext() && overBudget(finishedOnly)) {
			SpanRecord root = roots.next();
			if (!finishedOnly || !root.inFlight()) {
				roots.remove();
				this.evictedSpans.add(groupSize(root));
				removeGroup(root);
			}
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
		record.markEvicted();
		this.spans.remove(record.spanId(), record);
		this.sampleBytes.addAndGet(-(long) record.ownNodeCount() * StackTree.BYTES_PER_NODE);
		for (SpanRecord child : record.children()) {
			removeGroup(child);
		}
	}

}
