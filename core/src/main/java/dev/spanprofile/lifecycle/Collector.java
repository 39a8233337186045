package dev.spanprofile.lifecycle;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.spanprofile.attribution.SampleAttributor;
import dev.spanprofile.sampling.EngineWithWaits;
import dev.spanprofile.sampling.JfrWaitEngine;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.tracking.NanoClock;

/**
 * The collector: one worker thread that joins samples to their spans and completes
 * finished requests' profiles, and the order its work must be done in for a finished
 * request to get every sample up to its end.
 * <p>
 * From {@link #start} to {@link #stop} the thread <b>ticks</b>, waits as long as the tick
 * says ({@link CollectorClock#nextWakeMillis}: often enough to keep the threads' rings of
 * span switches from lapping, never past the next collection's deadline) or until woken
 * (a ring half full, a request starting to await its samples, a reader), in an
 * {@link UnrecordedWait}. A tick <b>drains change points</b> to the attributor's
 * timelines, complete up to the time read <i>before</i> the drain (a switch stamped
 * earlier has been published by the time its ring is read). When the
 * {@link CollectorClock}'s one deadline has come it runs a <b>collection</b> instead, in
 * this order:
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
 * less {@link CollectorSettings#forgetSlack()} (a sample may be stamped just before the
 * point that ends its span is published), and, for an engine whose promise stops moving,
 * those older than its {@link CollectorClock#deliveryHorizon() delivery horizon};</li>
 * <li>let the store <b>evict</b> what is over its bounds.</li>
 * </ol>
 * After a restart ({@link #resumedAt}) thread states are unknown from before the engine's
 * first sample until each thread's next change point: ends while stopped were not
 * recorded.
 * <p>
 * <b>One worker</b>, as OpenTelemetry's batch span processor: a reader that needs fresh
 * data ({@link #collectUnlessFresh}, and {@link #collectNow} as its {@code forceFlush})
 * asks for a collection by a deadline, wakes the collector and waits for the collection
 * that starts after its call, at most {@link CollectorSettings#readerWait()}; it never
 * dumps the engine itself, so the listeners have one thread. Only while the thread does
 * not run (before {@link #start}, after {@link #stop}, in tests that {@code tick} by
 * hand) does a caller of {@link #collectNow} collect itself. Every time the collector
 * goes by is in {@link CollectorSettings}, and its clock is a parameter, so tests step
 * it. One lock serializes collections and drains.
 */
public final class Collector {

	private static final System.Logger logger = System.getLogger(Collector.class.getName());

	/** Replaced only while the profiler is stopped ({@link #useEngine}). */
	private volatile SamplingEngine engine;

	private final SampleAttributor attributor;

	private final SpanProfileStore store;

	private final ActivationRecorder recorder;

	private final CollectorSettings settings;

	/** Whether the profiler runs: a collection while it does not joins nothing. */
	private final BooleanSupplier running;

	private final NanoClock clock;

	/** When to collect and drain: guarded by {@link #lock} but for readers' requests. */
	private final CollectorClock collectorClock;

	private final CollectionCycles stats = new CollectionCycles();

	private final ReentrantLock lock = new ReentrantLock();

	/** Run at each collection before its completed roots are handed on. */
	private volatile Runnable beforeHandOff = () -> {
	};

	private final Supplier<UnrecordedWait> waits;

	/**
	 * The thread's wait while it runs, else {@code null}: a thread not waiting in it
	 * ends.
	 */
	private volatile UnrecordedWait wait;

	/** Guarded by this. */
	private Thread thread;

	/** Guarded by {@link #lock}. */
	private boolean failureLogged;

	/** The watermark ({@link #completeUpTo()}), and as it, waits excepted. */
	private volatile long completeUpTo = Long.MIN_VALUE;

	private volatile long sampledUpTo = Long.MIN_VALUE;

	/**
	 * @param clock the engine's clock ({@link NanoClock#SYSTEM}, or one a test steps)
	 */
	public Collector(SamplingEngine engine, SampleAttributor attributor, SpanProfileStore store,
			ActivationRecorder recorder, CollectorSettings settings, BooleanSupplier running, NanoClock clock) {
		this(engine, attributor, store, recorder, settings, running, clock, UnrecordedWait::inSelector);
	}

	/** As the other, its thread waiting in what {@code waits} makes: a test's. */
	Collector(SamplingEngine engine, SampleAttributor attributor, SpanProfileStore store, ActivationRecorder recorder,
			CollectorSettings settings, BooleanSupplier running, NanoClock clock, Supplier<UnrecordedWait> waits) {
		this.engine = engine;
		this.attributor = attributor;
		this.store = store;
		this.recorder = recorder;
		this.settings = settings;
		this.running = running;
		this.clock = clock;
		this.collectorClock = new CollectorClock(settings, clock);
		this.waits = waits;
		store.whenRequestsAwait(this::requestsBeganAwaiting);
		store.profilesCompleteUpTo(MonotonicEpoch.watermarkToEpochNanos(this.completeUpTo));
	}

	/** Start the collector thread; its first tick is a quickest drain from now. */
	public synchronized void start() {
		if (this.thread == null) {
			UnrecordedWait waiting = this.waits.get();
			this.wait = waiting;
			this.recorder.setDrainWanted(waiting::wake);
			this.thread = new Thread(() -> run(waiting), JfrWaitEngine.COLLECTOR_THREAD);
			this.thread.setDaemon(true);
			this.thread.start();
		}
	}

	/**
	 * Stop the collector thread: no further tick starts, and one under way finishes,
	 * waited for up to {@link CollectorSettings#stopWait()}. Not interrupted: a
	 * collection interrupted mid-read closes the recording's channel and logs a failure.
	 */
	public synchronized void stop() {
		UnrecordedWait waiting = this.wait;
		if (this.thread == null) {
			return;
		}
		this.wait = null;
		this.recorder.setDrainWanted(null);
		waiting.wake();
		try {
			this.thread.join(this.settings.stopWait().toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.thread = null;
		waiting.close();
	}

	private void run(UnrecordedWait waiting) {
		long waitMillis = this.settings.quickestDrain().toMillis();
		while (this.wait == waiting) {
			waiting.upTo(Math.max(1, waitMillis));
			if (this.wait == waiting) {
				waitMillis = tick();
			}
		}
	}

	/**
	 * The collector thread's work: a collection when its deadline has come, else a drain.
	 * Never throws.
	 * @return milliseconds until the next tick is due
	 */
	long tick() {
		this.lock.lock();
		try {
			try {
				if (this.collectorClock.due(this.store.awaitingSamples(), this.store.awaitingRoom(),
						this.completeUpTo)) {
					collect();
				}
				else {
					drainChangePoints();
				}
			}
			catch (Throwable ex) {
				// Never let the collector thread die: one failed collection would end
				// profiling for good, where it loses samples, not the profiler.
				logFailure(ex);
			}
			return this.collectorClock.nextWakeMillis(this.store.awaitingSamples(), this.store.awaitingRoom(),
					this.completeUpTo);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Any thread: tick now rather than at the end of the wait, while the thread runs. */
	void wakeUp() {
		UnrecordedWait waiting = this.wait;
		if (waiting != null) {
			waiting.wake();
		}
	}

	/** A request began to await its samples with none before it: pace for the room. */
	private void requestsBeganAwaiting() {
		this.collectorClock.requestsBeganAwaiting();
		wakeUp();
	}

	/**
	 * A request slow enough for the slow-request log ended just now, so collect soon for
	 * its line. One volatile write, on the request's thread.
	 */
	public void slowRequestEnded() {
		this.collectorClock.slowRequestEnded();
	}

	/** Collect from {@code engine} from now on; only while the profiler is stopped. */
	public void useEngine(SamplingEngine engine) {
		this.engine = engine;
	}

	/**
	 * Sampling resumes: what threads ran is unknown from {@code resumedAt} (read before
	 * the engine started) until each thread's next change point.
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
	 * requests they complete are handed on, so that what it reads covers them all.
	 */
	public void beforeHandOff(Runnable action) {
		this.beforeHandOff = action;
	}

	/**
	 * A reader is about to look at profiles: as {@link #collectNow}, unless the last
	 * collection is still fresh (then its results, once it has ended), so that a span
	 * that just ended shows complete without waiting for the dump interval.
	 */
	public void collectUnlessFresh() {
		if (!this.collectorClock.fresh()) {
			collectNow();
		}
		else if (!this.lock.isHeldByCurrentThread()) {
			await(this.collectorClock.lastCollection());
		}
	}

	/**
	 * Have every sample taken so far joined to its span, and return once it is (or after
	 * {@link CollectorSettings#readerWait()}), so that a caller can read a span's
	 * complete profile right after it ended: the collector thread's collection when it
	 * runs, else one here. Called during a collection on this thread (by a listener),
	 * returns at once: that collection is the one joining them.
	 */
	public void collectNow() {
		if (this.lock.isHeldByCurrentThread()) {
			// A nested collection would re-enter the hand-off of the outer one.
			return;
		}
		UnrecordedWait waiting = this.wait;
		if (waiting == null) {
			collect();
			return;
		}
		CompletableFuture<Void> collected = this.collectorClock.collectBy(this.clock.nanoTime());
		waiting.wake();
		if (this.wait != waiting) {
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

	/** One collection, here; it releases the readers that asked before it started. */
	private void collect() {
		CompletableFuture<Void> waiting;
		this.lock.lock();
		try {
			long dumpStart = this.clock.nanoTime();
			waiting = this.collectorClock.started(dumpStart);
			if (this.running.getAsBoolean()) {
				collectLocked(dumpStart);
			}
		}
		finally {
			this.lock.unlock();
		}
		waiting.complete(null);
	}

	private void collectLocked(long dumpStart) {
		long upTo = dumpStart;
		boolean collected = false;
		try {
			drainChangePoints();
			upTo = this.engine.collect(this.attributor);
			this.failureLogged = false;
			collected = true;
		}
		catch (IOException | RuntimeException | Error ex) {
			// Errors too: a parser fed a corrupt recording throws OutOfMemoryError for an
			// absurd array length or StackOverflowError, and neither the collector nor a
			// caller of stop() should die of that.
			logFailure(ex);
		}
		drainChangePoints();
		long complete = this.completeUpTo;
		boolean advanced = collected && upTo > complete;
		if (collected) {
			complete = upTo;
			this.collectorClock.promised(upTo, dumpStart);
			this.sampledUpTo = (this.engine instanceof EngineWithWaits withWaits) ? withWaits.sampledUpTo() : upTo;
		}
		this.beforeHandOff.run();
		// Spans' ends are kept in epoch nanoseconds: the watermark is mapped onto them
		// here only, as every span time is.
		this.store.profilesCompleteUpTo(MonotonicEpoch.watermarkToEpochNanos(complete));
		this.attributor.completeUnsampledUpTo(complete, this.clock.nanoTime(),
				this.settings.unsampledMaxAge().toNanos());
		// Published once the requests up to it are handed on: a reader that sees it
		// reads them without the lock.
		this.completeUpTo = complete;
		long horizon = this.collectorClock.deliveryHorizon();
		this.attributor.forgetBefore(Math.max(upTo, dumpStart - horizon) - this.settings.forgetSlack().toNanos());
		this.store.evictIfNeeded();
		// Once the room for awaiting requests is emptied: how long that took counts.
		this.collectorClock.ended(advanced);
		this.stats.record(this.clock.nanoTime() - dumpStart, horizon, this.attributor.timelineCount(),
				this.attributor.changePointCount());
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
	 * Up to when every sample has been joined: a span that ended by then has its whole
	 * profile. {@link Long#MIN_VALUE} before the first collection, so that a request
	 * dropped before it awaits its samples.
	 */
	public long completeUpTo() {
		return this.completeUpTo;
	}

	/** As {@link #completeUpTo()}, waits excepted: their stream delivers later. */
	public long sampledUpTo() {
		return this.sampledUpTo;
	}

	long now() {
		return this.clock.nanoTime();
	}

	/** Collections run so far, their duration and what they left retained. */
	public CollectionCycles stats() {
		return this.stats;
	}

}
