package dev.spanprofile.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.UnsampledRequest;

/**
 * What becomes of a request once it has ended, traced or not: one state machine, in one
 * place. A traced request is a stored local root with its descendants; a request that
 * tracing did not sample ({@link UnsampledRequest}) is never stored as a span, but its
 * samples are gathered here ({@link UnsampledSamples}) and its fate is decided the same
 * way, by the same watermark.
 *
 * <pre>
 *   running ──ends──▶ ENDED ──samples up to its end joined──▶ COMPLETE ──▶ handed on
 *      │               │  (stored: recent or protected)          ▲          (once)
 *      │               └─dropped, room to wait──▶ AWAITING ──────┤
 *      │               └─dropped, no room────────▶ GONE INCOMPLETE ┘
 *      └─dropped while running (twice max-spans)──▶ DROPPED RUNNING (never handed on)
 * </pre>
 * <ol>
 * <li><b>ended</b>: its root is queued here ({@link #ended}) just before the store marks
 * it ended, while it is still stored, as a recent request or kept as slow or failed
 * ({@link RetentionBudget}). The collector joins its samples a dump interval or so after
 * they were taken.</li>
 * <li><b>awaiting</b>: the store dropped it before the samples up to its end were joined,
 * and there was room (at most {@code maxRoots} requests, their bytes counted here against
 * the store's memory bound): out of sight, no view lists it, but the attributor still
 * finds it ({@link #find}) and its samples land.</li>
 * <li><b>gone incomplete</b>: dropped before its samples were joined, without room to
 * await them (or pushed out of the awaiting ones for memory): it takes no more samples,
 * and is counted ({@link #droppedIncompleteCount()}).</li>
 * <li><b>complete</b>: the collector has joined every sample up to its end
 * ({@link #completeUpTo}), or it is gone incomplete: it is handed to the listeners (the
 * span-name aggregates, the slow-request log, the exports) exactly once, with its whole
 * profile or what it had. An awaiting request then goes for good
 * ({@link #releaseComplete}); a stored one stays until the store drops it, and is not
 * handed on again.</li>
 * <li><b>dropped running</b>: the store drops running requests only at twice
 * {@code max-spans} (spans that never end must not grow it forever). Its end then reaches
 * no record, so it is never handed on; it is counted ({@link #droppedRunningCount()}),
 * and its name's latency is counted as it ends all the same (by the lifecycle, not
 * here).</li>
 * </ol>
 * <p>
 * An <b>unsampled</b> request, profiled (its rate let it in):
 *
 * <pre>
 *   running ──a sample or change point reaches it──▶ GATHERING ──ends, samples up to its end joined──▶ handed on
 *      │                                                 └─not ended {@code unsampledMaxAge} after it started──▶ let go
 *      └─no room (too many gathering)──▶ its latency only
 * </pre>
 *
 * At most {@link #MAX_UNSAMPLED} requests and {@link #MAX_UNSAMPLED_FRAMES} frames of
 * their samples are held at once (a request beyond either keeps its latency, not its
 * samples; its name's latency is counted as it ends, by the lifecycle, not here). Once
 * handed on or let go it is not taken up again: a late sample counts as outside any
 * request.
 * <p>
 * Listeners run on the collector's thread only, in {@link #completeUpTo} and
 * {@link #completeUnsampledUpTo}: a request thread that drops requests to make room only
 * changes their state, so the aggregates have one writer and no application thread folds
 * profiles, writes log lines or exports.
 * <p>
 * Threads: request threads queue ended roots ({@link #ended}); moves in and out of the
 * awaiting state happen under the store's eviction lock; {@link #completeUpTo} runs on
 * the collector's thread (or a caller of a collection, which holds the collection's
 * lock).
 */
final class FinishedRequests {

	private static final System.Logger logger = System.getLogger(FinishedRequests.class.getName());

	/** Unsampled requests whose samples are gathered at once. */
	static final int MAX_UNSAMPLED = 10_000;

	/**
	 * Frames of unsampled requests' samples held at once: at most 4 MB of stacks where
	 * none is shared, a few thousand concurrent requests' samples.
	 */
	static final int MAX_UNSAMPLED_FRAMES = 1_000_000;

	/**
	 * What an unsampled request handed on or let go keeps in place of its samples: a
	 * change point drained after that finds it there, and the request is not taken up
	 * again.
	 */
	private static final Object HANDED_ON = new Object();

	private final int maxRoots;

	/**
	 * Written by request threads as roots end; a queue rather than a map, because a map's
	 * shared table and counter cost a request thread more than anything else spanprofile
	 * does for it, and a root needs no lookup.
	 */
	private final Queue<SpanRecord> ended = new ConcurrentLinkedQueue<>();

	/**
	 * Collector only: roots taken from {@link #ended}, not complete when last looked at.
	 */
	private List<SpanRecord> incomplete = new ArrayList<>();

	private final List<Consumer<SpanRecord>> listeners = new CopyOnWriteArrayList<>();

	private volatile boolean listenerFailureLogged;

	private final List<BiConsumer<UnsampledRequest, StackTree[]>> unsampledListeners = new CopyOnWriteArrayList<>();

	/** Collector only: unsampled requests gathering samples, in the order first seen. */
	private List<UnsampledSamples> unsampled = new ArrayList<>();

	/** Collector only: frames of {@link #unsampled}'s samples. */
	private int unsampledFrames;

	/** Every span of the awaiting requests, by id. */
	private final Map<String, SpanRecord> awaitingSpans = new ConcurrentHashMap<>();

	/**
	 * The awaiting requests' roots, in the order they were dropped. Guarded by the
	 * store's eviction lock.
	 */
	private final ArrayDeque<SpanRecord> awaitingRoots = new ArrayDeque<>();

	/** The size of {@link #awaitingRoots}, for readers without the lock (metrics). */
	private volatile int awaitingCount;

	/**
	 * What the awaiting requests' samples hold: moved here from the store's account, and
	 * charged here for later samples.
	 */
	private final AtomicLong awaitingBytes = new AtomicLong();

	private final LongAdder droppedIncomplete = new LongAdder();

	private final LongAdder droppedRunning = new LongAdder();

	/**
	 * Until a profiler says, every profile counts as complete: a store nobody joins
	 * samples for has nothing to wait for. On the spans' time, epoch nanoseconds.
	 */
	private volatile long joinedUpTo = Long.MAX_VALUE;

	/**
	 * Told, on the dropping thread, when a request starts awaiting with none awaiting
	 * before it: the collector is to pace itself for them from now on.
	 */
	private volatile Runnable firstAwaiting;

	FinishedRequests(int maxRoots) {
		this.maxRoots = maxRoots;
	}

	void addListener(Consumer<SpanRecord> listener) {
		this.listeners.add(listener);
	}

	/**
	 * A stored root ends: queued just before the store marks it ended, so that a drop the
	 * moment after finds it here.
	 */
	void ended(SpanRecord root) {
		if (!this.listeners.isEmpty()) {
			this.ended.add(root);
		}
	}

	void addUnsampledListener(BiConsumer<UnsampledRequest, StackTree[]> listener) {
		this.unsampledListeners.add(listener);
	}

	/**
	 * Where a sample of {@code request} goes, on the collector's thread: its samples so
	 * far, or {@code null} when it was handed on or let go already, or there is no room
	 * for another request.
	 */
	UnsampledSamples gatherUnsampled(UnsampledRequest request) {
		if (request.samples() instanceof UnsampledSamples samples) {
			return samples;
		}
		if (request.samples() == HANDED_ON || this.unsampled.size() >= MAX_UNSAMPLED) {
			return null;
		}
		UnsampledSamples samples = new UnsampledSamples(this, request);
		request.samples(samples);
		this.unsampled.add(samples);
		return samples;
	}

	/** Whether {@code frames} more may be held for unsampled requests; if so, held. */
	boolean holdUnsampledFrames(int frames) {
		if (this.unsampledFrames + frames > MAX_UNSAMPLED_FRAMES) {
			return false;
		}
		this.unsampledFrames += frames;
		return true;
	}

	/**
	 * Samples up to {@code upToNanos} (the engine's clock) are joined: hand each
	 * unsampled request that ended by then to the listeners, with its samples by
	 * {@link dev.spanprofile.profile.SampleKind#ordinal()} ({@code null} for a kind
	 * without any), and let go of those started more than {@code maxAgeNanos} before
	 * {@code nowNanos} and not ended. Collector only.
	 * @return whether any request was handed on or let go (its samples are then
	 * {@link UnsampledSamples#isDone() done})
	 */
	boolean completeUnsampledUpTo(long upToNanos, long nowNanos, long maxAgeNanos) {
		List<UnsampledSamples> still = new ArrayList<>(this.unsampled.size());
		for (UnsampledSamples samples : this.unsampled) {
			UnsampledRequest request = samples.request();
			boolean complete = request.isEnded() && request.endNanos() <= upToNanos;
			if (!complete && (request.isEnded() || nowNanos - request.startNanos() <= maxAgeNanos)) {
				still.add(samples);
				continue;
			}
			this.unsampledFrames -= samples.frames();
			if (complete) {
				handUnsampled(request, samples.trees());
			}
			samples.done();
			request.samples(HANDED_ON);
		}
		boolean done = still.size() < this.unsampled.size();
		this.unsampled = still;
		return done;
	}

	private void handUnsampled(UnsampledRequest request, StackTree[] samples) {
		for (BiConsumer<UnsampledRequest, StackTree[]> listener : this.unsampledListeners) {
			try {
				listener.accept(request, samples);
			}
			catch (RuntimeException ex) {
				logListenerFailure(ex);
			}
		}
	}

	/** Unsampled requests whose samples are held (for tests and diagnostics). */
	int unsampledCount() {
		return this.unsampled.size();
	}

	void whenFirstAwaiting(Runnable first) {
		this.firstAwaiting = first;
	}

	/** A span of an awaiting request, or {@code null}. */
	SpanRecord find(String spanId) {
		return this.awaitingSpans.get(spanId);
	}

	/** Whether samples up to the end of this finished request may still be unjoined. */
	boolean awaitsSamples(SpanRecord root) {
		return !root.inFlight() && root.endEpochNanos() > this.joinedUpTo;
	}

	boolean hasRoom() {
		return this.awaitingRoots.size() < this.maxRoots;
	}

	boolean noneAwaiting() {
		return this.awaitingRoots.isEmpty();
	}

	/**
	 * A dropped request awaits its samples: moved here from {@code stored}, span by span,
	 * each findable in one map or the other at every moment, since the attributor must
	 * not miss it in between. Under the eviction lock.
	 */
	void await(SpanRecord root, Map<String, SpanRecord> stored) {
		this.awaitingRoots.addLast(root);
		this.awaitingCount = this.awaitingRoots.size();
		moveGroup(root, stored);
		Runnable first = this.firstAwaiting;
		if (first != null && this.awaitingCount == 1) {
			first.run();
		}
	}

	private void moveGroup(SpanRecord record, Map<String, SpanRecord> stored) {
		this.awaitingSpans.put(record.spanId(), record);
		record.awaitSamples(this.awaitingBytes);
		stored.remove(record.spanId(), record);
		for (SpanRecord child : record.children()) {
			moveGroup(child, stored);
		}
	}

	/**
	 * The request dropped longest ago goes now, with the samples it has: the store needs
	 * its memory. Under the eviction lock.
	 */
	void dropOldestAwaiting() {
		SpanRecord oldest = this.awaitingRoots.pollFirst();
		this.awaitingCount = this.awaitingRoots.size();
		forget(oldest);
		this.droppedIncomplete.increment();
	}

	/** A finished request went at once, with samples missing: no room to await them. */
	void droppedIncomplete() {
		this.droppedIncomplete.increment();
	}

	/**
	 * A request went while still running: its end will find no record. Under the eviction
	 * lock.
	 */
	void droppedRunning() {
		this.droppedRunning.increment();
	}

	/**
	 * Samples up to {@code upTo} (epoch nanoseconds) are joined: hand the requests that
	 * ended by then, and those gone incomplete, to the listeners. Collector only; then
	 * {@link #releaseComplete} under the eviction lock.
	 */
	void completeUpTo(long upTo) {
		this.joinedUpTo = upTo;
		for (SpanRecord root = this.ended.poll(); root != null; root = this.ended.poll()) {
			this.incomplete.add(root);
		}
		if (this.incomplete.isEmpty()) {
			return;
		}
		List<SpanRecord> still = new ArrayList<>();
		for (SpanRecord root : this.incomplete) {
			// One still running was dropped in the instant its end was being recorded:
			// handed on once its end is known.
			if (!root.inFlight() && (root.endEpochNanos() <= upTo || root.isGone())) {
				hand(root);
			}
			else {
				still.add(root);
			}
		}
		this.incomplete = still;
	}

	/**
	 * The awaiting requests that {@link #completeUpTo} handed on go for good. Under the
	 * eviction lock.
	 */
	void releaseComplete() {
		long upTo = this.joinedUpTo;
		for (Iterator<SpanRecord> it = this.awaitingRoots.iterator(); it.hasNext();) {
			SpanRecord root = it.next();
			if (root.endEpochNanos() <= upTo) {
				it.remove();
				forget(root);
			}
		}
		this.awaitingCount = this.awaitingRoots.size();
	}

	private void forget(SpanRecord record) {
		record.evict();
		this.awaitingSpans.remove(record.spanId(), record);
		for (SpanRecord child : record.children()) {
			forget(child);
		}
	}

	private void hand(SpanRecord root) {
		for (Consumer<SpanRecord> listener : this.listeners) {
			try {
				listener.accept(root);
			}
			catch (RuntimeException ex) {
				logListenerFailure(ex);
			}
		}
	}

	private void logListenerFailure(RuntimeException ex) {
		if (!this.listenerFailureLogged) {
			this.listenerFailureLogged = true;
			logger.log(System.Logger.Level.WARNING, "spanprofile: a completed-request listener failed", ex);
		}
	}

	/** Roots ended and not yet handed on (for tests and diagnostics; collector only). */
	int incompleteCount() {
		return this.incomplete.size() + this.ended.size();
	}

	long droppedIncompleteCount() {
		return this.droppedIncomplete.sum();
	}

	long droppedRunningCount() {
		return this.droppedRunning.sum();
	}

	/** Requests (local roots) awaiting their samples. */
	int awaitingCount() {
		return this.awaitingCount;
	}

	/** Spans awaiting, requests with their descendants. */
	int awaitingSpanCount() {
		return this.awaitingSpans.size();
	}

	long awaitingBytes() {
		return this.awaitingBytes.get();
	}

}
