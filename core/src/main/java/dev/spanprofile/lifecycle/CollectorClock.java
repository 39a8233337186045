package dev.spanprofile.lifecycle;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import dev.spanprofile.tracking.NanoClock;

/**
 * When the collector works, as opposed to what it does ({@link Collector}): one deadline
 * for the next collection, and when to wake before it to drain the threads' rings. As
 * OpenTelemetry's batch span processor has one worker and one deadline, every reason to
 * collect sooner lowers the same deadline:
 * <ul>
 * <li>the dump interval: due that long after the last collection started;</li>
 * <li>a reader ({@link #collectBy}, an atomic minimum): a page, a caller of
 * {@code collectNow}, {@code stop()}; it waits for the collection's end it is given;</li>
 * <li>a slow request's log line: {@link CollectorSettings#slowRequestDelay()} after the
 * first slow request the watermark does not cover yet ended (Flight Recorder's waits
 * reach the collector about that late), and again while it does not, after the fresh
 * window;</li>
 * <li>the room for dropped requests to await their samples: when, at the rate they came
 * since the room last emptied, it would fill within
 * {@link CollectorSettings#roomMargin()} and the time a collection takes to empty it, so
 * that later ones do not reach the listeners without their samples.</li>
 * </ul>
 * The last two only while the last collection moved the watermark on (a failing engine,
 * or one whose promise stopped moving, would otherwise be dumped five times a second for
 * as long as it stays so), and never within {@link CollectorSettings#fresh()} of the
 * last.
 * <p>
 * Between collections the collector drains as seldom as the rings allow
 * ({@link #nextWakeMillis}), between {@link CollectorSettings#quickestDrain()} and
 * {@link CollectorSettings#slowestDrain()}, aiming to find the fullest ring at
 * {@link CollectorSettings#drainTargetFill()}: each wake-up costs a system call and a
 * context switch, and on a machine whose cores are all busy it takes a core from a
 * request. At the quickest pace only while the room may bring a collection forward before
 * the next paced drain: at a steady rate that never happens, however many requests await.
 * <p>
 * What it collects up to is the engine's promise, and how far back change points are kept
 * for it is {@link #deliveryHorizon}: engines promise with a lag of their own (a Flight
 * Recorder stream a flush behind, a Pyroscope agent an upload interval behind), and one
 * whose promise stops moving (its stream died) must not make the collector keep every
 * change point from then on. The horizon is twice the longest lag the promise showed
 * before it moved again, within {@link CollectorSettings#minDeliveryHorizon()} (an engine
 * still to deliver its first batch is not cut short) and
 * {@link CollectorSettings#maxDeliveryHorizon()} (one long stall does not set it for
 * good).
 * <p>
 * All times are read from one {@link NanoClock}, so tests step it. Request threads only
 * write {@link #slowRequestEnded} and {@link #requestsBeganAwaiting}, and readers only
 * call {@link #collectBy} and {@link #fresh}; the rest is the collector's (under its
 * lock).
 */
final class CollectorClock {

	/** Not yet: no slow request has ended, none awaits, nothing promised. */
	private static final long NONE = Long.MIN_VALUE;

	private static final long DAY_NANOS = TimeUnit.DAYS.toNanos(1);

	private final NanoClock clock;

	private final long intervalNanos;

	private final long freshNanos;

	private final long roomMarginNanos;

	private final long slowRequestDelayNanos;

	private final long quickestDrainMillis;

	private final long slowestDrainMillis;

	private final double drainTargetFill;

	private final long minHorizonNanos;

	private final long maxHorizonNanos;

	/**
	 * The next collection to start: the earliest deadline readers asked it by and what
	 * tells them it ended.
	 */
	private final AtomicReference<NextCollection> next = new AtomicReference<>(new NextCollection());

	/** Completed when the collection in progress ends (the last one's between them). */
	private volatile CompletableFuture<Void> lastCollection = CompletableFuture.completedFuture(null);

	/** When the last collection started; volatile for {@link #fresh}. */
	private volatile long lastStart;

	/** Whether the last collection moved the watermark on. */
	private boolean advanced = true;

	/**
	 * How long a collection takes to empty the room: the longest of the last ones, halved
	 * at each collection since, so that one slowed by a loaded machine brings the next
	 * few forward by as much and a quick one does not undo that at once.
	 */
	private long collectionNanos;

	/** When a request last began to await its samples with none before it, or NONE. */
	private volatile long firstAwaitingAt = NONE;

	/** When the latest slow request ended, or {@link #NONE}. */
	private volatile long latestSlowEnd = NONE;

	/**
	 * The end of the slow request the deadline is kept for, until the watermark covers
	 * it: requests that end together are collected together, and a later one does not put
	 * it off.
	 */
	private long slowEnd = NONE;

	private long lastDrainStart;

	/** The stretch the last drain covered: from the drain before it to its start. */
	private long lastDrainCovered;

	/** The largest share of its ring a thread had filled over that stretch. */
	private double lastDrainFill;

	/** Up to when the engine last promised every sample, or NONE since (re)starting. */
	private long promisedUpTo = NONE;

	/** How stale the promise had grown, at the longest, by the time it moved. */
	private long longestLagNanos;

	CollectorClock(CollectorSettings settings, NanoClock clock) {
		this.clock = clock;
		this.intervalNanos = settings.dumpInterval().toNanos();
		this.freshNanos = settings.fresh().toNanos();
		this.roomMarginNanos = settings.roomMargin().toNanos();
		this.slowRequestDelayNanos = settings.slowRequestDelay().toNanos();
		this.quickestDrainMillis = settings.quickestDrain().toMillis();
		this.slowestDrainMillis = settings.slowestDrain().toMillis();
		this.drainTargetFill = settings.drainTargetFill();
		this.minHorizonNanos = settings.minDeliveryHorizon().toNanos();
		this.maxHorizonNanos = settings.maxDeliveryHorizon().toNanos();
		long now = clock.nanoTime();
		this.lastStart = now;
		this.lastDrainStart = now;
	}

	/**
	 * Any thread: have the next collection start by {@code deadline} at the latest.
	 * @return completed once a collection that started after this call has ended
	 */
	CompletableFuture<Void> collectBy(long deadline) {
		NextCollection collection = this.next.get();
		collection.collectBy.accumulateAndGet(deadline, Math::min);
		return collection.ended;
	}

	/** A request slow enough for the slow-request log ended now, on its thread. */
	void slowRequestEnded() {
		this.latestSlowEnd = this.clock.nanoTime();
	}

	/** A request began to await its samples with none before it, now, on its thread. */
	void requestsBeganAwaiting() {
		this.firstAwaitingAt = this.clock.nanoTime();
	}

	/**
	 * Any thread: whether a collection started now would find little the last did not.
	 */
	boolean fresh() {
		return this.clock.nanoTime() - this.lastStart < this.freshNanos;
	}

	/** Completed once the collection in progress, if any, has ended. */
	CompletableFuture<Void> lastCollection() {
		return this.lastCollection;
	}

	/**
	 * Whether the next collection is due now, with {@code awaiting} dropped requests
	 * awaiting their samples in a room for {@code room} and the watermark at
	 * {@code completeUpTo}.
	 */
	boolean due(int awaiting, int room, long completeUpTo) {
		long now = this.clock.nanoTime();
		return now >= deadline(now, awaiting, room, completeUpTo);
	}

	/** The one deadline, as of {@code now}: the earliest any reason to collect asks. */
	private long deadline(long now, int awaiting, int room, long completeUpTo) {
		long deadline = Math.min(this.lastStart + this.intervalNanos, this.next.get().collectBy.get());
		if (!this.advanced) {
			return deadline;
		}
		long roomDeadline = (awaiting == 0) ? Long.MAX_VALUE : now + untilRoomFills(now, awaiting, room) - roomMargin();
		long early = Math.min(slowRequestDeadline(completeUpTo), roomDeadline);
		return Math.min(deadline, Math.max(early, this.lastStart + this.freshNanos));
	}

	private long slowRequestDeadline(long completeUpTo) {
		long latest = this.latestSlowEnd;
		if (latest == NONE || latest <= completeUpTo) {
			this.slowEnd = NONE;
			return Long.MAX_VALUE;
		}
		if (this.slowEnd == NONE || this.slowEnd <= completeUpTo) {
			this.slowEnd = latest;
		}
		return this.slowEnd + this.slowRequestDelayNanos;
	}

	/** How long before the room fills a collection is to start. */
	private long roomMargin() {
		return this.roomMarginNanos + this.collectionNanos;
	}

	/**
	 * How long until the room fills, at the rate requests came to await their samples:
	 * counted from the first that began to await since the last collection started, the
	 * others came since it. Not from the collection: a store drops its complete requests
	 * first, so none awaits for a while after it, and a rate over that stretch was too
	 * low by half in a small store. From the collection only when some awaited from
	 * before it: too high when samples arrive late (Flight Recorder's waits), which errs
	 * early.
	 */
	private long untilRoomFills(long now, int awaiting, int room) {
		int left = Math.max(0, room - awaiting);
		if (left == 0) {
			return 0;
		}
		boolean sinceEmpty = sinceEmpty();
		long since = Math.max(1, now - (sinceEmpty ? this.firstAwaitingAt : this.lastStart));
		int came = sinceEmpty ? awaiting - 1 : awaiting;
		if (came <= 0) {
			return DAY_NANOS;
		}
		// At most a day: far beyond any interval, and no overflow when added to now.
		return (long) Math.min(DAY_NANOS, (double) left * since / came);
	}

	/** Whether the room emptied since the last collection started. */
	private boolean sinceEmpty() {
		long first = this.firstAwaitingAt;
		return first != NONE && first - this.lastStart > 0;
	}

	/**
	 * Milliseconds until the collector should next wake: for the next paced drain, or the
	 * deadline if sooner. At the quickest pace while the room may bring the deadline
	 * before the next paced drain: half full (a rate over the first few to await says
	 * little, and a burst may come after them), the first just began to await and no
	 * drain has looked since (no rate yet), or filling within the margin and a slowest
	 * drain.
	 */
	long nextWakeMillis(int awaiting, int room, long completeUpTo) {
		long now = this.clock.nanoTime();
		boolean firstUndrained = awaiting == 1 && sinceEmpty() && this.lastDrainStart - this.firstAwaitingAt < 0;
		boolean hurried = this.advanced && awaiting > 0 && (2L * awaiting >= room || firstUndrained
				|| untilRoomFills(now, awaiting, room) <= roomMargin() + this.slowestDrainMillis * 1_000_000L);
		long between = hurried ? this.quickestDrainMillis : pacedMillis();
		long sinceLastDrain = TimeUnit.NANOSECONDS.toMillis(Math.max(0, now - this.lastDrainStart));
		long untilDrain = Math.max(1, between - sinceLastDrain);
		long untilDeadline = TimeUnit.NANOSECONDS
			.toMillis(Math.max(0, deadline(now, awaiting, room, completeUpTo) - now)) + 1;
		return Math.min(untilDrain, untilDeadline);
	}

	/**
	 * The wait between drains that finds the fullest ring at the target fill, at the rate
	 * the last drain found it filled over the stretch it covered.
	 */
	private long pacedMillis() {
		if (this.lastDrainFill <= 0) {
			return this.slowestDrainMillis;
		}
		double paced = this.lastDrainCovered / 1e6 * this.drainTargetFill / this.lastDrainFill;
		return (long) Math.max(this.quickestDrainMillis, Math.min(this.slowestDrainMillis, paced));
	}

	/** A drain started at {@code start} found the fullest ring at {@code fill}. */
	void drained(long start, double fill) {
		this.lastDrainCovered = start - this.lastDrainStart;
		this.lastDrainStart = start;
		this.lastDrainFill = fill;
	}

	/**
	 * A collection starts at {@code now}: the readers that asked for one until now wait
	 * for what this returns, which the caller completes once it has ended.
	 */
	CompletableFuture<Void> started(long now) {
		this.lastStart = now;
		CompletableFuture<Void> ended = this.next.getAndSet(new NextCollection()).ended;
		this.lastCollection = ended;
		return ended;
	}

	/**
	 * Sampling resumes at {@code now}: the next collection is due an interval later, and
	 * the pause is no lag of the engine's: the next promise starts afresh.
	 */
	void resumed(long now) {
		this.lastStart = now;
		this.promisedUpTo = NONE;
	}

	/** The engine promised every sample up to {@code upTo} at {@code now}. */
	void promised(long upTo, long now) {
		if (upTo <= this.promisedUpTo) {
			return;
		}
		if (this.promisedUpTo != NONE) {
			this.longestLagNanos = Math.max(this.longestLagNanos, now - this.promisedUpTo);
		}
		this.promisedUpTo = upTo;
	}

	/** Change points older than this, before now, are not kept for the promise. */
	long deliveryHorizon() {
		return Math.min(this.maxHorizonNanos, Math.max(this.minHorizonNanos, 2 * this.longestLagNanos));
	}

	/**
	 * The collection that started last ended now, having moved the watermark on or not.
	 */
	void ended(boolean advanced) {
		this.advanced = advanced;
		this.collectionNanos = Math.max(this.clock.nanoTime() - this.lastStart, this.collectionNanos / 2);
	}

	/** The next collection as readers see it before it starts. */
	private static final class NextCollection {

		/** The earliest deadline a reader asked it by; MAX_VALUE while none. */
		final AtomicLong collectBy = new AtomicLong(Long.MAX_VALUE);

		final CompletableFuture<Void> ended = new CompletableFuture<>();

	}

}
