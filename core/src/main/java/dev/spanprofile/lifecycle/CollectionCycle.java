package dev.spanprofile.lifecycle;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import dev.spanprofile.attribution.SampleAttributor;
import dev.spanprofile.sampling.EngineWithWaits;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.tracking.NanoClock;

/**
 * The collector's work, and the order it must be done in for a finished request to get
 * every sample up to its end.
 * <p>
 * At each {@link #tick} the collector <b>drains change points</b>: each thread's ring of
 * span switches goes to the attributor's timelines, with the time read <i>before</i> the
 * drain, up to which they are complete (a switch stamped earlier has been published by
 * the time its ring is read). The tick says when the next is due
 * ({@link CollectorClock#nextWakeMillis}): often enough to keep the rings from lapping,
 * never past the next collection's deadline, and a ring half full asks for one at once.
 * <p>
 * When the {@link CollectorClock}'s one deadline has come (every dump interval, or sooner
 * for a reader, for requests about to fill the room to await their samples, or for a slow
 * request's log line) it runs a <b>collection</b>, in this order:
 * <ol>
 * <li>drain change points, so that the stretch the engine's samples may outrun is
 * short;</li>
 * <li>the engine <b>dumps</b> and delivers every sample taken so far, promising all up to
 * a time ({@code upTo}). A sample newer than the drained change points is held back by
 * the attributor;</li>
 * <li>drain again: the held-back samples are joined now that every switch stamped before
 * the dump is known;</li>
 * <li><b>advance the watermark</b> to {@code upTo} (only when the collect succeeded: a
 * failed one leaves profiles incomplete rather than complete without their samples);</li>
 * <li>hand <b>completed requests</b> (local roots that ended by the watermark, and those
 * the store dropped without their samples meanwhile) to the listeners: aggregates,
 * slow-span log, OTLP export, and only then release those the store dropped while they
 * awaited their samples, so that they reach the listeners with them
 * ({@code FinishedRequests}); and the unsampled requests that ended by then to the
 * aggregates;</li>
 * <li><b>forget</b> change points no later sample can need: those before the watermark
 * less {@link CollectorSettings#forgetSlack()} (two dump intervals: a sample may be
 * stamped just before the point that ends its span is published), and, for an engine
 * whose promise stops moving, those older than its
 * {@link CollectorClock#deliveryHorizon() delivery horizon};</li>
 * <li>let the store <b>evict</b> what is over its bounds.</li>
 * </ol>
 * After a restart ({@link #resumedAt}) thread states are unknown from before the engine's
 * first sample until each thread's next change point: ends while stopped were not
 * recorded.
 * <p>
 * <b>One worker.</b> While the collector thread runs, every collection runs on it, as
 * OpenTelemetry's batch span processor exports on its own thread: a reader that needs
 * fresh data (a page, a caller of {@link #collectNow}) asks for a collection by a
 * deadline ({@link #collectUnlessFresh}, {@link #collectNow}), wakes the collector and
 * waits for the collection that starts after its call, at most
 * {@link CollectorSettings#readerWait()}; it never dumps the engine itself. So the
 * listeners of completed requests have one thread. Only without a collector thread
 * (before {@code start()}, after {@code stop()}, in tests that tick by hand) does a
 * caller of {@link #collectNow} collect on its own thread. Every time the collector goes
 * by is in {@link CollectorSettings}; the clock is a parameter, so tests step it and call
 * {@link #tick} themselves.
 * <p>
 * One lock serializes a collection with a drain and with readers of the attributor's
 * counts.
 */
public final class CollectionCycle {

	private static final System.Logger logger = System.getLogger(CollectionCycle.class.getName());

	/** Replaced only while the profiler is stopped ({@link #useEngine}). */
	private volatile SamplingEngine engine;

	private final SampleAttributor attributor;

	private final SpanProfileStore store;

	private final ActivationRecorder recorder;

	private final BooleanSupplier running;

	private final ReentrantLock lock = new ReentrantLock();

	private final CollectionCycles stats = new CollectionCycles();

	/**
	 * Run at each collection before its completed roots are handed on (the container's
	 * CPU throttling is read there, once per collection).
	 */
	private volatile Runnable beforeHandOff = () -> {
	};

	private final CollectorSettings settings;

	/**
	 * What wakes the collector thread for a tick at once, or {@code null} while there is
	 * none: then a caller of {@link #collectNow} collects itself.
	 */
	private volatile Runnable wake;

	/** The engine's one clock: {@code System.nanoTime()}, or a test's. */
	private final NanoClock clock;

	/**
	 * When the next collection is due and the next drain: guarded by {@link #lock}, but
	 * for what readers and request threads ask of it.
	 */
	private final CollectorClock collectorClock;

	/** Guarded by {@link #lock}. */
	private boolean failureLogged;

	/**
	 * The watermark, on the cycle's clock: every sample up to it is joined.
	 * {@link Long#MIN_VALUE} while nothing is: a request dropped before the first cycle
	 * awaits its samples.
	 */
	private volatile long completeUpTo = Long.MIN_VALUE;

	/** As {@link #completeUpTo}, waits excepted. */
	private volatile long sampledUpTo = Long.MIN_VALUE;

	/**
	 * @param running whether the profiler runs: a collection while it does not joins
	 * nothing
	 * @param clock the engine's clock ({@link NanoClock#SYSTEM}, or one a test steps)
	 */
	public CollectionCycle(SamplingEngine engine, SampleAttributor attributor, SpanProfileStore store,
			ActivationRecorder recorder, CollectorSettings settings, BooleanSupplier running, NanoClock clock) {
		this.clock = clock;
		this.settings = settings;
		this.engine = engine;
		this.attributor = attributor;
		this.store = store;
		this.recorder = recorder;
		this.collectorClock = new CollectorClock(settings, clock);
		this.running = running;
		store.whenRequestsAwait(this::requestsBeganAwaiting);
		store.profilesCompleteUpTo(MonotonicEpoch.watermarkToEpochNanos(this.completeUpTo));
	}

	/**
	 * Collect from {@code engine} from now on; the profiler is stopped while it changes
	 * engines.
	 */
	public void useEngine(SamplingEngine engine) {
		this.lock.lock();
		try {
			this.engine = engine;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The collector thread's task: a collection when its deadline has come, else a drain.
	 * Never throws.
	 * @return milliseconds until the next tick is due
	 */
	public long tick() {
		try {
			boolean due;
			this.lock.lock();
			try {
				due = this.collectorClock.due(this.store.awaitingSamples(), this.store.awaitingRoom(),
						this.completeUpTo);
				if (!due) {
					drainChangePoints();
				}
			}
			finally {
				this.lock.unlock();
			}
			if (due) {
				collect();
			}
		}
		catch (Throwable ex) {
			// Never let the collector thread die: a single failed cycle would end
			// profiling for good. A failed cycle loses samples, not the profiler.
			logFailure(ex);
		}
		this.lock.lock();
		try {
			return this.collectorClock.nextWakeMillis(this.store.awaitingSamples(), this.store.awaitingRoom(),
					this.completeUpTo);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Set (or clear, with {@code null}) what wakes the collector for a tick before its
	 * pace says: a thread's ring of change points half full, a request starting to await
	 * its samples, a reader asking for a collection. Set while the collector thread runs:
	 * a caller of {@link #collectNow} collects itself only while it is cleared.
	 */
	void wakeWith(Runnable wake) {
		this.wake = wake;
		this.recorder.setDrainWanted(wake);
	}

	/**
	 * On the thread that dropped it: a request began to await its samples with none
	 * before it. The collector estimates from then how soon the room fills, and paces
	 * itself for it from now on.
	 */
	private void requestsBeganAwaiting() {
		this.collectorClock.requestsBeganAwaiting();
		Runnable wakeCollector = this.wake;
		if (wakeCollector != null) {
			wakeCollector.run();
		}
	}

	/**
	 * A request slow enough for the slow-request log ended just now: collect about a
	 * second from now rather than at the end of the dump interval, so that its line comes
	 * soon after it. One volatile write, on the request's thread.
	 */
	public void slowRequestEnded() {
		this.collectorClock.slowRequestEnded();
	}

	/**
	 * Sampling resumes: what threads ran while nothing recorded is unknown from
	 * {@code resumedAt} (read before the engine started, so before its first sample)
	 * until each thread's next change point.
	 */
	public void resumedAt(long resumedAt) {
		this.lock.lock();
		try {
			drainChangePoints();
			this.attributor.statesUnknownFrom(resumedAt);
			this.collectorClock.resumed(this.clock.nanoTime());
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Run {@code action} at each collection, after the samples are joined and before the
	 * requests they complete are handed on: what it reads then covers every request
	 * handed on.
	 */
	public void beforeHandOff(Runnable action) {
		this.beforeHandOff = action;
	}

	/**
	 * A reader is about to look at profiles: have what was sampled since the last
	 * collection joined, unless that one is still fresh, so that a span that just ended
	 * shows complete without waiting for the dump interval. As {@link #collectNow}, the
	 * collection runs on the collector thread while there is one.
	 */
	public void collectUnlessFresh() {
		if (!this.collectorClock.fresh()) {
			collectNow();
		}
		else if (!this.lock.isHeldByCurrentThread()) {
			// Fresh but maybe still running: its results, not another collection.
			await(this.collectorClock.lastCollection());
		}
	}

	/**
	 * Have every sample taken so far joined to its span, and return once it is (or after
	 * {@link CollectorSettings#readerWait()}), so that a caller can read a span's
	 * complete profile right after it ended. While the collector thread runs, asks it for
	 * a collection now and waits for it, as a batch span processor's {@code forceFlush}
	 * does; without one, collects here. Called during a collection on this thread (by a
	 * listener), returns at once: that collection is the one joining them.
	 */
	public void collectNow() {
		if (this.lock.isHeldByCurrentThread()) {
			// Called from a listener during a collection on this thread: a nested one
			// would re-enter the hand-off of the requests the outer one is handing on.
			return;
		}
		Runnable wakeCollector = this.wake;
		if (wakeCollector == null) {
			collect();
			return;
		}
		CompletableFuture<Void> collected = this.collectorClock.collectBy(this.clock.nanoTime());
		wakeCollector.run();
		if (this.wake != wakeCollector) {
			// The collector stopped meanwhile; its last collection may have been taken
			// before this one was asked for.
			collect();
			return;
		}
		await(collected);
	}

	private void await(CompletableFuture<Void> collected) {
		try {
			collected.get(this.settings.readerWait().toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Read what is joined: a reader is not failed for a late collector.
		}
	}

	/**
	 * One collection, on this thread: join every sample taken so far to its span. The
	 * readers waiting for a collection that had not started when they asked are released
	 * once it ends.
	 */
	private void collect() {
		CompletableFuture<Void> waiting;
		this.lock.lock();
		try {
			long dumpStart = this.clock.nanoTime();
			// Before the dump: a reader that asked for this one asked before it.
			waiting = this.collectorClock.started(dumpStart);
			collectLocked(dumpStart);
		}
		finally {
			this.lock.unlock();
		}
		waiting.complete(null);
	}

	private void collectLocked(long dumpStart) {
		if (!this.running.getAsBoolean()) {
			return;
		}
		long upTo;
		boolean collected = false;
		try {
			drainChangePoints();
			upTo = this.engine.collect(this.attributor);
			this.failureLogged = false;
			collected = true;
		}
		catch (IOException | RuntimeException | Error ex) {
			// Errors too: a parser fed a corrupt recording throws OutOfMemoryError
			// for an absurd array length or StackOverflowError, and neither the
			// collector nor a caller of stop() should die of that.
			logFailure(ex);
			upTo = dumpStart;
		}
		drainChangePoints();
		boolean advanced = collected && upTo > this.completeUpTo;
		long complete = this.completeUpTo;
		if (collected) {
			complete = upTo;
			this.collectorClock.promised(upTo, dumpStart);
			this.sampledUpTo = (this.engine instanceof EngineWithWaits withWaits) ? withWaits.sampledUpTo() : upTo;
		}
		this.beforeHandOff.run();
		// Spans' ends are kept in epoch nanoseconds: the watermark is mapped onto them
		// here
		// only, as every span time is.
		this.store.profilesCompleteUpTo(MonotonicEpoch.watermarkToEpochNanos(complete));
		this.attributor.completeUnsampledUpTo(complete, this.clock.nanoTime(),
				this.settings.unsampledMaxAge().toNanos());
		// Published once the roots and profiles up to it are handed on: a reader
		// that sees it (a view marking a profile complete, a test that waits for it)
		// reads them without the lock.
		this.completeUpTo = complete;
		long forgetFrom = Math.max(upTo, dumpStart - this.collectorClock.deliveryHorizon());
		this.attributor.forgetBefore(forgetFrom - this.settings.forgetSlack().toNanos());
		this.store.evictIfNeeded();
		// Once the room for awaiting requests is emptied: how long that took counts.
		this.collectorClock.ended(advanced);
		this.stats.record(this.clock.nanoTime() - dumpStart);
	}

	private void drainChangePoints() {
		long drainStart = this.clock.nanoTime();
		double fill = this.recorder.drainTo(this.attributor);
		this.attributor.changePointsCompleteUpTo(drainStart);
		this.collectorClock.drained(drainStart, fill);
	}

	private void logFailure(Throwable ex) {
		if (!this.failureLogged) {
			this.failureLogged = true;
			logger.log(System.Logger.Level.WARNING,
					"spanprofile: collecting samples failed, profiles may miss samples until it recovers: " + ex, ex);
		}
	}

	/**
	 * Up to when every sample has been joined, on the cycle's clock
	 * ({@link Long#MIN_VALUE} before the first collection): a span that ended by then has
	 * its whole profile.
	 */
	public long completeUpTo() {
		return this.completeUpTo;
	}

	/**
	 * Up to when every sample but the waits has been joined: the waits come from a stream
	 * of their own, which delivers later.
	 */
	public long sampledUpTo() {
		return this.sampledUpTo;
	}

	/**
	 * How long before a collection change points are forgotten at the latest, whatever
	 * the engine's promise (for tests and diagnostics).
	 */
	long forgetHorizonNanos() {
		this.lock.lock();
		try {
			return this.collectorClock.deliveryHorizon();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Now, on the cycle's clock. */
	long now() {
		return this.clock.nanoTime();
	}

	/** Every time the collector goes by. */
	public CollectorSettings settings() {
		return this.settings;
	}

	/** Collections run so far and their duration. */
	public CollectionCycles stats() {
		return this.stats;
	}

	/**
	 * Threads whose change points the attributor still holds (for tests and diagnostics).
	 */
	public int retainedTimelines() {
		this.lock.lock();
		try {
			return this.attributor.timelineCount();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Change points the attributor still holds, all threads together (for tests and
	 * diagnostics).
	 */
	public int retainedChangePoints() {
		this.lock.lock();
		try {
			return this.attributor.changePointCount();
		}
		finally {
			this.lock.unlock();
		}
	}

}
