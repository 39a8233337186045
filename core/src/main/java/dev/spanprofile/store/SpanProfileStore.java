package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.UnsampledRequest;

/**
 * The spans of recent requests with their samples, bounded in count and memory.
 * <p>
 * Spans are grouped by local root (one request in this process): a group is kept or
 * dropped whole, so a parent's inclusive flame graph never silently loses a child's
 * samples. Finished groups are dropped oldest first; running ones only when the count
 * reaches twice the limit (spans that never end must not grow the store forever): see
 * {@link RetentionBudget}, which decides what leaves.
 * <p>
 * A few finished requests are kept longer, within the same bounds: per span name the
 * slowest, and the latest failed ones (see {@link RetentionSettings}). They are not in
 * the eviction order of recent requests; they go when their retention ends, when slower
 * ones outrank them, or, as a last resort, when the store has nothing else to drop.
 * <p>
 * What becomes of a request once it ended, up to the listeners of completed requests
 * (called on the collector's thread only), is {@link FinishedRequests}'. A request
 * dropped before the collection cycle that joins its last samples would lose them (on a
 * busy application most requests do: they leave the store within one dump interval);
 * until its profile is complete it awaits them out of sight. At most
 * {@link StoreSettings#awaitingRoom()} requests await, and their bytes count against the
 * same memory bound; beyond either, a dropped request goes at once with what it has.
 */
public final class SpanProfileStore {

	/**
	 * Rough heap cost of a span's metadata, for the memory budget: the record, its
	 * attributes and a local root's {@link SpanCpuTime.Measured} (the memory benchmark
	 * measured 375-376 bytes per stored span with samples since the last).
	 */
	static final int BYTES_PER_SPAN = 384;

	/** The frame table may take at most this fraction (1/n) of the memory budget. */
	static final int FRAME_TABLE_SHARE = 4;

	private final StoreSettings settings;

	private final FrameTable frames;

	private final Map<String, SpanRecord> spans = new ConcurrentHashMap<>();

	/**
	 * Ended requests until they are complete; dropped ones awaiting their samples are
	 * moved in and out by {@link #budget}.
	 */
	private final FinishedRequests finished;

	private final RetentionBudget budget;

	/** A store whose retention window follows the end times of the spans it is given. */
	public SpanProfileStore(StoreSettings settings) {
		this(settings, () -> 0);
	}

	/**
	 * @param clock epoch nanoseconds now, on the spans' clock: retention windows end by
	 * it even when no span ends
	 */
	public SpanProfileStore(StoreSettings settings, LongSupplier clock) {
		this.settings = settings;
		// Frame names are shared by all spans and cannot be evicted with them: they get a
		// fixed share of the budget.
		this.frames = new FrameTable(settings.maxBytes() / FRAME_TABLE_SHARE);
		this.finished = new FinishedRequests(awaitingRoom());
		this.budget = new RetentionBudget(settings, this.spans, this::approximateBytes, clock, this.finished);
	}

	public StoreSettings settings() {
		return this.settings;
	}

	public FrameTable frames() {
		return this.frames;
	}

	/**
	 * Call {@code listener} once for each stored local root that ended (not left out on
	 * purpose) and whose profile is complete: every sample up to its end joined, or the
	 * store had to drop it before, with no room to keep it awaiting its samples. Called
	 * from {@link #profilesCompleteUpTo}, on the collector's thread.
	 */
	public void onRequestComplete(Consumer<SpanRecord> listener) {
		this.finished.addListener(listener);
	}

	/**
	 * Call {@code listener} for each request that tracing did not sample once every
	 * sample up to its end is joined, with its samples by
	 * {@link dev.spanprofile.profile.SampleKind#ordinal()} ({@code null} for a kind
	 * without any). Runs on the collector's thread only.
	 */
	public void onUnsampledComplete(BiConsumer<UnsampledRequest, StackTree[]> listener) {
		this.finished.addUnsampledListener(listener);
	}

	/**
	 * Where the samples of an unsampled request go, on the collector's thread;
	 * {@code null} once it was handed on or let go, or without room for another (its
	 * samples then count as outside any request).
	 */
	public UnsampledSamples gatherUnsampled(UnsampledRequest request) {
		return this.finished.gatherUnsampled(request);
	}

	/**
	 * Samples up to {@code upToNanos} (the engine's clock) are joined: hand the unsampled
	 * requests that ended by then to their listeners, and let go of those not ended
	 * {@code maxAgeNanos} after they started. On the collector's thread.
	 * @return whether any was handed on or let go
	 */
	public boolean unsampledCompleteUpTo(long upToNanos, long nowNanos, long maxAgeNanos) {
		return this.finished.completeUnsampledUpTo(upToNanos, nowNanos, maxAgeNanos);
	}

	/** Unsampled requests whose samples are gathered (for tests and diagnostics). */
	public int unsampledGathering() {
		return this.finished.unsampledCount();
	}

	/**
	 * A span started. {@code parentSpanId} is null for a trace root;
	 * {@code parentIsLocal} tells whether the parent runs in this process (a remote
	 * parent makes this span a local root).
	 */
	public SpanRecord spanStarted(String traceId, String spanId, String parentSpanId, boolean parentIsLocal,
			String name, String kind, long startEpochNanos, String threadName) {
		SpanRecord parent = (parentIsLocal && parentSpanId != null) ? this.spans.get(parentSpanId) : null;
		SpanRecord record = new SpanRecord(traceId, spanId, parentSpanId, parent, name, kind, startEpochNanos,
				threadName, this.budget.recentAccount());
		if (parent != null && !parent.addChild(record)) {
			// The parent's request went meanwhile: this span stands as a request of its
			// own, as it does when its parent is gone before it starts.
			record = new SpanRecord(traceId, spanId, parentSpanId, null, name, kind, startEpochNanos, threadName,
					this.budget.recentAccount());
			parent = null;
		}
		// Published only once its parent has taken it: a span found by id (by a
		// grandchild starting on another thread) is in its request's group, which an
		// eviction walk reaches, or a request of its own.
		this.spans.put(spanId, record);
		if (parent == null) {
			this.budget.started(record);
		}
		else if (record.isEvicted()) {
			// Its request went (or began to await its samples) between taking it and now:
			// the walk that took the group out marked it before it was here to remove.
			this.spans.remove(spanId, record);
		}
		else if (parent.retainedAs() != RetainedAs.RECENT) {
			// A child of a finished request kept as slow, failed or forced.
			this.budget.joined(parent.localRoot());
		}
		// Span metadata counts against the memory budget too: many small spans must not
		// wait for a sample to be evicted.
		if (this.spans.size() > this.settings.maxSpans() || approximateBytes() > this.settings.maxBytes()) {
			evictIfNeeded();
		}
		return record;
	}

	/**
	 * A span ended. {@code excluded} drops it (and, for a local root, its whole request)
	 * from the store, as for requests to the actuator itself.
	 */
	public void spanEnded(String spanId, String name, String status, long endEpochNanos, boolean excluded) {
		SpanRecord record = this.spans.get(spanId);
		if (record == null) {
			SpanRecord waiting = this.finished.find(spanId);
			if (waiting != null) {
				// A descendant of a dropped request: kept for its samples only, so only
				// its end matters.
				waiting.ended(name, status, endEpochNanos);
			}
			return;
		}
		if (record.isLocalRoot() && !excluded) {
			this.budget.judge(record, (name != null) ? name : record.name(), "ERROR".equals(status), endEpochNanos);
			// Queued before it counts as ended: from then on another thread may drop it.
			this.finished.ended(record);
		}
		record.ended(name, status, endEpochNanos);
		if (excluded && record.isLocalRoot()) {
			this.budget.excluded(record);
		}
	}

	/**
	 * Keep the request of {@code record} (its local root) when it ends, as
	 * {@link RetainedAs#FORCED}, whatever its duration and status: its caller asked for
	 * its profile. Within the same share and window as the slowest and failed ones.
	 */
	public void keepWhenEnded(SpanRecord record) {
		keepWhenEnded(record, null);
	}

	/**
	 * {@link #keepWhenEnded(SpanRecord)} for a request a capture took.
	 * @param capture the capture's name, {@code null} for none
	 */
	public void keepWhenEnded(SpanRecord record, String capture) {
		record.localRoot().force(capture);
	}

	/** Local roots kept as slow or failed requests (for tests and diagnostics). */
	public int protectedCount() {
		return this.budget.protectedCount();
	}

	/** The span with this id, or {@code null}. */
	public SpanRecord find(String spanId) {
		return this.spans.get(spanId);
	}

	/**
	 * The span with this id, stored or dropped but still awaiting its samples, or
	 * {@code null}: where samples and the span's end go. Views use {@link #find}.
	 */
	public SpanRecord findTracked(String spanId) {
		SpanRecord record = this.spans.get(spanId);
		return (record != null) ? record : this.finished.find(spanId);
	}

	/**
	 * Samples up to {@code upTo} (on the spans' time, epoch nanoseconds) have been
	 * joined: requests that ended by then have their whole profile, and go to the
	 * listeners of completed requests (with those dropped without their samples
	 * meanwhile); dropped ones awaiting their samples leave. On the collector's thread
	 * (or a caller holding the collection's lock).
	 */
	public void profilesCompleteUpTo(long upTo) {
		this.finished.completeUpTo(upTo);
		if (this.finished.awaitingCount() > 0) {
			this.budget.releaseComplete();
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
	 * Spans matching {@code filter}, newest first, at most {@code limit}. With
	 * root-span-only attribution only local roots are listed, since only they carry
	 * samples.
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
		if (record.addSample(kind, rootFirstStack, weight) && overBounds()) {
			evictIfNeeded();
		}
	}

	/**
	 * Add one sample of {@code kind} to {@code record}, taken at {@code epochNanos} on
	 * thread {@code threadId} (named {@code threadName} when known), placing it on the
	 * span's timeline too.
	 */
	public void addSample(SpanRecord record, SampleKind kind, int[] rootFirstStack, long weight, long epochNanos,
			long threadId, String threadName) {
		if (record.addSample(kind, rootFirstStack, weight, epochNanos, threadId, threadName) && overBounds()) {
			evictIfNeeded();
		}
	}

	/**
	 * Whether a sample just added took the store over its memory bound, or the protected
	 * requests over their share of it (their samples keep coming after they were judged).
	 */
	private boolean overBounds() {
		return approximateBytes() > this.settings.maxBytes() || this.budget.protectedOverShare();
	}

	public int size() {
		return this.spans.size();
	}

	/**
	 * Approximate heap held by stored spans, their samples and the frame names they
	 * share, and by dropped requests awaiting their samples.
	 */
	public long approximateBytes() {
		return this.budget.sampleBytes() + this.finished.awaitingBytes()
				+ (long) (this.spans.size() + this.finished.awaitingSpanCount()) * BYTES_PER_SPAN
				+ this.frames.approximateBytes();
	}

	/**
	 * Set (or clear, with {@code null}) what is told, on the thread that drops it, when a
	 * request starts awaiting its samples with none awaiting before it.
	 */
	public void whenRequestsAwait(Runnable first) {
		this.finished.whenFirstAwaiting(first);
	}

	/**
	 * Dropped requests (local roots) awaiting their samples now: at most
	 * {@link #awaitingRoom()}.
	 */
	public int awaitingSamples() {
		return this.finished.awaitingCount();
	}

	/**
	 * How many dropped requests may await their samples at once
	 * ({@link StoreSettings#awaitingRoom()}); beyond, they are handed on without them.
	 */
	public int awaitingRoom() {
		return this.settings.awaitingRoom();
	}

	/**
	 * Finished requests dropped before all their samples were joined, and with no room to
	 * await them: handed to the listeners of completed requests (span-name aggregates,
	 * slow-span log, OTLP export) with samples missing.
	 */
	public long droppedIncomplete() {
		return this.finished.droppedIncompleteCount();
	}

	/**
	 * Requests dropped while still running, at twice {@code max-spans}: their end finds
	 * no record, so they never reach the listeners of completed requests.
	 */
	public long droppedRunning() {
		return this.finished.droppedRunningCount();
	}

	/**
	 * Spans dropped to keep the store within its bounds since it was created (not
	 * counting requests left out on purpose, such as those to the actuator).
	 */
	public long evictedSpans() {
		return this.budget.evictedSpans();
	}

	/** Drop the oldest requests until the store is within its bounds. */
	public void evictIfNeeded() {
		this.budget.evictIfNeeded();
	}

	/**
	 * Ended requests not yet handed to the listeners of completed requests (for tests and
	 * diagnostics; collector thread).
	 */
	int incompleteRequests() {
		return this.finished.incompleteCount();
	}

}
