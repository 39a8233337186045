package dev.spanprofile;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.attribution.AttributionCounters;
import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.attribution.SampleAttributor;
import dev.spanprofile.lifecycle.CompletedRoots;
import dev.spanprofile.lifecycle.LocalRootEndProcessor;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.slowlog.SlowSpanLog;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.lifecycle.SpanLifecycleProcessor;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * The engine: samples threads, joins each sample to the span active on its thread at that moment, and keeps the
 * result in a bounded {@link SpanProfileStore}.
 * <p>
 * One collector thread drains the per-thread change points often (so the rings stay small) and, every dump
 * interval, asks the sampling engine for the samples taken since and joins them. Only one engine can run per JVM:
 * the activation hook and the native profiler are process-wide.
 */
public final class SpanProfiler implements AutoCloseable {

	private static final System.Logger logger = System.getLogger(SpanProfiler.class.getName());

	private static final long DRAIN_PERIOD_MILLIS = 50;

	/** The instance that owns the JVM-wide hook and native profiler, if any. */
	private static final AtomicReference<SpanProfiler> owner = new AtomicReference<>();

	private final SpanProfilerSettings settings;

	private final SpanProfileStore store;

	private final NameAggregates aggregates;

	private final CompletedRoots completedRoots = new CompletedRoots();

	private final SampleAttributor attributor;

	private final SamplingEngine engine;

	private final ActivationRecorder recorder = ActivationRecorder.global();

	private final ReentrantLock cycle = new ReentrantLock();

	private final CollectionCycles collectionCycles = new CollectionCycles();

	private final DeliveryLag deliveryLag;

	private ScheduledExecutorService collector;

	private long lastCollect;

	private volatile long completeUpTo;

	/**
	 * Spans are stored only while {@link ProfilerState#isRunning() running}: stored while nothing samples, they
	 * would have no profiles and push the profiles kept from before out of the store.
	 */
	private volatile ProfilerState state = ProfilerState.NEW;

	private boolean collectFailureLogged;

	public SpanProfiler(SpanProfilerSettings settings, Function<FrameTable, SamplingEngine> engineFactory) {
		this.settings = settings;
		this.store = new SpanProfileStore(settings.store(), MonotonicEpoch::nowEpochNanos);
		this.aggregates = new NameAggregates(settings.aggregate(), this.store.frames(), MonotonicEpoch::nowEpochNanos);
		this.store.onRootDropped(this.completedRoots::dropped);
		this.store.onRootEnding(this.completedRoots::ended);
		// Nothing is joined yet: a request dropped before the first cycle awaits its samples.
		this.store.profilesCompleteUpTo(Long.MIN_VALUE);
		this.completedRoots.addListener(this.aggregates::fold);
		this.attributor = new SampleAttributor(this.store);
		this.deliveryLag = new DeliveryLag(settings.dumpInterval());
		this.engine = engineFactory.apply(this.store.frames());
		if (settings.slowSpanLog().enabled()) {
			this.completedRoots.addListener(new SlowSpanLog(settings.slowSpanLog(), this.store.frames(),
					settings.sampler().kinds(), settings.sampler().interval(), System::nanoTime));
		}
	}

	public SpanProfilerSettings settings() {
		return this.settings;
	}

	public SpanProfileStore store() {
		return this.store;
	}

	/** Profiles and latency per local-root span name over the aggregate window. */
	public NameAggregates aggregates() {
		return this.aggregates;
	}

	/**
	 * Call {@code listener} once for each stored local root whose profile is complete: every sample up to its end
	 * has been joined (or the store has to drop it before, with no room to keep it awaiting its samples). Runs on the
	 * collector thread (or the evicting one): keep it short.
	 */
	public void onProfileComplete(Consumer<SpanRecord> listener) {
		this.completedRoots.addListener(listener);
	}

	/**
	 * The processor that reports span starts and ends to this engine; register it with the tracer provider.
	 * @param excluded spans (with their whole local request, if a root) not to keep
	 */
	public SpanProcessor spanProcessor(Predicate<ReadableSpan> excluded) {
		SpanProcessor lifecycle = new SpanLifecycleProcessor(this.store, excluded, () -> this.state.isRunning());
		SpanProcessor rootEnds = new LocalRootEndProcessor(this.store, this.aggregates, excluded);
		return SpanProcessor.composite(lifecycle, rootEnds);
	}

	/**
	 * Start sampling. Never throws: when the engine cannot run here the reason is logged once and reported by
	 * {@link #status()}, and the application carries on unprofiled.
	 * @return whether sampling started
	 */
	public synchronized boolean start() {
		if (this.state.isRunning()) {
			return true;
		}
		if (!owner.compareAndSet(null, this)) {
			this.state = ProfilerState
				.failed("another spanprofile engine already runs in this JVM; only one can own the profiler");
			logger.log(System.Logger.Level.WARNING, "spanprofile not started: " + this.state.reason());
			return false;
		}
		// Read before the engine starts: from the first sample it takes, what a thread runs is unknown until its next
		// change point (ends while stopped were not recorded).
		long resumedAt = System.nanoTime();
		try {
			this.engine.start();
		}
		catch (SamplerUnavailableException | RuntimeException | LinkageError ex) {
			owner.set(null);
			this.state = ProfilerState.failed(ex.getMessage());
			logger.log(System.Logger.Level.WARNING, "spanprofile: " + this.engine.name()
					+ " unavailable, spans will have no profiles: " + this.state.reason());
			return false;
		}
		forgetThreadStates(resumedAt);
		this.recorder.setRecording(true);
		this.lastCollect = System.nanoTime();
		this.collector = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, "spanprofile-collector");
			thread.setDaemon(true);
			return thread;
		});
		this.collector.scheduleWithFixedDelay(this::tick, DRAIN_PERIOD_MILLIS, DRAIN_PERIOD_MILLIS,
				TimeUnit.MILLISECONDS);
		this.state = ProfilerState.RUNNING;
		String note = this.engine.note();
		logger.log(System.Logger.Level.INFO, "spanprofile started: " + this.engine.name() + ", event="
				+ this.engine.activeEvent() + ", interval=" + this.settings.sampler().interval().toMillis() + "ms"
				+ ((note != null) ? " (" + note + ")" : ""));
		return true;
	}

	/**
	 * After a stop nothing recorded what threads did: from {@code resumedAt} (read before the engine started, so
	 * before its first sample) until a thread's next change point, what it runs is unknown, so its samples are
	 * dropped rather than given to the span it ran before the stop.
	 */
	private void forgetThreadStates(long resumedAt) {
		this.cycle.lock();
		try {
			drainChangePoints();
			this.attributor.statesUnknownFrom(resumedAt);
		}
		finally {
			this.cycle.unlock();
		}
	}

	/**
	 * Stop sampling; stored profiles stay readable, and spans starting from now on are not stored. {@link #start()}
	 * resumes.
	 */
	public synchronized void stop() {
		if (!this.state.isRunning()) {
			return;
		}
		// Not shutdownNow: interrupting a cycle mid-read closes the recording's channel and logs a failure at every
		// shutdown. A running cycle finishes; no further one starts.
		this.collector.shutdown();
		try {
			this.collector.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.collector = null;
		// Spans started until now are sampled until now: collect their last samples, then stop storing spans.
		collectNow();
		this.state = ProfilerState.STOPPED;
		this.recorder.setRecording(false);
		this.engine.close();
		owner.compareAndSet(this, null);
	}

	@Override
	public void close() {
		stop();
	}

	private void tick() {
		try {
			if (System.nanoTime() - this.lastCollect >= this.settings.dumpInterval().toNanos()) {
				collectNow();
			}
			else {
				drainActivations();
			}
		}
		catch (Throwable ex) {
			// Never let the scheduled task die: an executor silently cancels a periodic task that throws, so a
			// single failed cycle would end profiling for good. A failed cycle loses samples, not the profiler.
			logCollectFailure(ex);
		}
	}

	private void drainActivations() {
		this.cycle.lock();
		try {
			drainChangePoints();
		}
		finally {
			this.cycle.unlock();
		}
	}

	/**
	 * Hand the attributor every change point published so far, and with it the time before which its timelines
	 * are now complete: the clock is read before the drain, so a switch stamped earlier has been published by the
	 * time its thread's ring is read (bar a writer preempted between its clock read and its publication).
	 */
	private void drainChangePoints() {
		long drainStart = System.nanoTime();
		this.recorder.drainTo(this.attributor);
		this.attributor.changePointsCompleteUpTo(drainStart);
	}

	/**
	 * Run one collection cycle now: join every sample taken so far to its span. Returns once the samples are in
	 * the store, so a caller can read a span's complete profile right after it ended.
	 */
	public void collectNow() {
		this.cycle.lock();
		try {
			this.lastCollect = System.nanoTime();
			if (!this.state.isRunning()) {
				return;
			}
			// The engine dumps inside collect, after this first drain: samples taken since the drain are held back
			// by the attributor and joined after the second, which sees every switch stamped before the dump. The
			// first drain keeps that held-back stretch short.
			long dumpStart = System.nanoTime();
			long upTo;
			boolean collected = false;
			try {
				drainChangePoints();
				upTo = this.engine.collect(this.attributor);
				this.collectFailureLogged = false;
				collected = true;
			}
			catch (IOException | RuntimeException | Error ex) {
				// Errors too: a parser fed a corrupt recording throws OutOfMemoryError for an absurd array length
				// or StackOverflowError, and neither the collector nor a caller of stop() should die of that.
				// Profiles stay incomplete (completeUpTo does not move) until a cycle succeeds.
				logCollectFailure(ex);
				upTo = dumpStart;
			}
			drainChangePoints();
			if (collected) {
				this.completeUpTo = upTo;
				this.deliveryLag.promised(upTo, dumpStart);
			}
			long completeEpochNanos = MonotonicEpoch.toEpochNanos(this.completeUpTo);
			this.completedRoots.completeUpTo(completeEpochNanos);
			// After the hand-off above, so that dropped requests awaiting their samples reach the listeners with them.
			this.store.profilesCompleteUpTo(completeEpochNanos);
			// Keep a margin of change points: a sample may be stamped slightly before the point that ends its span
			// is published. An engine whose promise stops moving does not hold them all: past the lag it has shown,
			// they go by elapsed time, and samples older than that are counted unknown.
			long forgetFrom = Math.max(upTo, dumpStart - this.deliveryLag.horizon());
			this.attributor.forgetBefore(forgetFrom - 2 * this.settings.dumpInterval().toNanos());
			this.store.evictIfNeeded();
			this.collectionCycles.record(System.nanoTime() - dumpStart);
		}
		finally {
			this.cycle.unlock();
		}
	}

	private void logCollectFailure(Throwable ex) {
		if (!this.collectFailureLogged) {
			this.collectFailureLogged = true;
			logger.log(System.Logger.Level.WARNING, "spanprofile: collecting samples failed, profiles may miss samples "
					+ "until it recovers: " + ex, ex);
		}
	}

	/** Epoch nanoseconds up to which all samples have been joined; a span ended before this is complete. */
	public long completeUpToEpochNanos() {
		return MonotonicEpoch.toEpochNanos(this.completeUpTo);
	}

	public ProfilerState state() {
		return this.state;
	}

	public EngineStatus status() {
		ProfilerState state = this.state;
		return new EngineStatus(this.engine.name(), this.engine.activeEvent(), state.isRunning(), state.reason(),
				state.isRunning() ? this.engine.note() : null);
	}

	/** Where samples went, per kind of sample; unlike {@link #attributionStats()} never waits for a cycle. */
	public AttributionCounters attributionCounters() {
		return this.attributor.counters();
	}

	/** Collection cycles run so far and their duration. */
	public CollectionCycles collectionCycles() {
		return this.collectionCycles;
	}

	/** Threads whose change points the attributor still holds (for tests and diagnostics). */
	int retainedTimelines() {
		this.cycle.lock();
		try {
			return this.attributor.timelineCount();
		}
		finally {
			this.cycle.unlock();
		}
	}

	/** Change points the attributor still holds, all threads together (for tests and diagnostics). */
	int retainedChangePoints() {
		this.cycle.lock();
		try {
			return this.attributor.changePointCount();
		}
		finally {
			this.cycle.unlock();
		}
	}

	public AttributionStats attributionStats() {
		this.cycle.lock();
		try {
			return this.attributor.stats();
		}
		finally {
			this.cycle.unlock();
		}
	}

}
