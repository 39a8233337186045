package dev.spanprofile;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.spanprofile.attribution.AttributionCounters;
import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.attribution.SampleAttributor;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.FrameTable;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.tracking.SpanLifecycleProcessor;
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

	private static final AtomicReference<SpanProfiler> running = new AtomicReference<>();

	private final SpanProfilerSettings settings;

	private final SpanProfileStore store;

	private final SampleAttributor attributor;

	private final SamplingEngine engine;

	private final ActivationRecorder recorder = ActivationRecorder.global();

	private final ReentrantLock cycle = new ReentrantLock();

	private final CollectionCycles collectionCycles = new CollectionCycles();

	private ScheduledExecutorService collector;

	private long lastCollect;

	private volatile long completeUpTo;

	private volatile String problem = "not started";

	/** Whether the engine holds a recording whose samples can be collected. */
	private volatile boolean sampling;

	/**
	 * Set by {@link #stop()} until the next {@link #start()}: spans that start meanwhile are not stored, so that
	 * they cannot push the profiles kept from before out of the store.
	 */
	private volatile boolean stopped;

	private boolean collectFailureLogged;

	public SpanProfiler(SpanProfilerSettings settings, Function<FrameTable, SamplingEngine> engineFactory) {
		this.settings = settings;
		this.store = new SpanProfileStore(settings.store());
		this.attributor = new SampleAttributor(this.store);
		this.engine = engineFactory.apply(this.store.frames());
	}

	public SpanProfilerSettings settings() {
		return this.settings;
	}

	public SpanProfileStore store() {
		return this.store;
	}

	/**
	 * The processor that reports span starts and ends to this engine; register it with the tracer provider.
	 * @param excluded spans (with their whole local request, if a root) not to keep
	 */
	public SpanProcessor spanProcessor(Predicate<ReadableSpan> excluded) {
		return new SpanLifecycleProcessor(this.store, excluded, () -> !this.stopped);
	}

	/**
	 * Start sampling. Never throws: when the engine cannot run here the reason is logged once and reported by
	 * {@link #status()}, and the application carries on unprofiled.
	 * @return whether sampling started
	 */
	public synchronized boolean start() {
		if (this.collector != null) {
			return true;
		}
		if (!running.compareAndSet(null, this)) {
			this.problem = "another spanprofile engine already runs in this JVM; only one can own the profiler";
			logger.log(System.Logger.Level.WARNING, "spanprofile not started: " + this.problem);
			return false;
		}
		try {
			this.engine.start();
		}
		catch (SamplerUnavailableException | RuntimeException | LinkageError ex) {
			running.set(null);
			this.problem = ex.getMessage();
			logger.log(System.Logger.Level.WARNING,
					"spanprofile: " + this.engine.name() + " unavailable, spans will have no profiles: " + this.problem);
			return false;
		}
		this.problem = null;
		this.sampling = true;
		forgetThreadStates();
		this.stopped = false;
		this.recorder.setRecording(true);
		this.lastCollect = System.nanoTime();
		this.collector = Executors.newSingleThreadScheduledExecutor(task -> {
			Thread thread = new Thread(task, "spanprofile-collector");
			thread.setDaemon(true);
			return thread;
		});
		this.collector.scheduleWithFixedDelay(this::tick, DRAIN_PERIOD_MILLIS, DRAIN_PERIOD_MILLIS,
				TimeUnit.MILLISECONDS);
		String note = this.engine.note();
		logger.log(System.Logger.Level.INFO, "spanprofile started: " + this.engine.name() + ", event="
				+ this.engine.activeEvent() + ", interval=" + this.settings.sampler().interval().toMillis() + "ms"
				+ ((note != null) ? " (" + note + ")" : ""));
		return true;
	}

	/**
	 * After a stop nothing recorded what threads did: until a thread's next change point, what it runs is unknown,
	 * so its samples are dropped rather than given to the span it ran before the stop.
	 */
	private void forgetThreadStates() {
		this.cycle.lock();
		try {
			this.recorder.drainTo(this.attributor);
			this.attributor.statesUnknownFrom(System.nanoTime());
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
		if (this.collector == null) {
			return;
		}
		this.stopped = true;
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
		collectNow();
		this.recorder.setRecording(false);
		this.sampling = false;
		this.engine.close();
		this.problem = "stopped";
		running.compareAndSet(this, null);
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
			this.recorder.drainTo(this.attributor);
		}
		finally {
			this.cycle.unlock();
		}
	}

	/**
	 * Run one collection cycle now: join every sample taken so far to its span. Returns once the samples are in
	 * the store, so a caller can read a span's complete profile right after it ended.
	 */
	public void collectNow() {
		this.cycle.lock();
		try {
			this.lastCollect = System.nanoTime();
			if (!this.sampling) {
				return;
			}
			// Change points first: every sample about to be joined was taken before this drain.
			long dumpStart = System.nanoTime();
			long upTo;
			try {
				this.recorder.drainTo(this.attributor);
				upTo = this.engine.collect(this.attributor);
				this.recorder.drainTo(this.attributor);
				this.collectFailureLogged = false;
				this.completeUpTo = upTo;
			}
			catch (IOException | RuntimeException | Error ex) {
				// Errors too: a parser fed a corrupt recording throws OutOfMemoryError for an absurd array length
				// or StackOverflowError, and neither the collector nor a caller of stop() should die of that.
				// Profiles stay incomplete (completeUpTo does not move) until a cycle succeeds.
				logCollectFailure(ex);
				upTo = dumpStart;
			}
			// Keep a margin of change points: a sample may be stamped slightly before the point that ends its span
			// is published.
			this.attributor.forgetBefore(upTo - 2 * this.settings.dumpInterval().toNanos());
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

	public EngineStatus status() {
		String problem = this.problem;
		return new EngineStatus(this.engine.name(), this.engine.activeEvent(), problem == null, problem,
				(problem == null) ? this.engine.note() : null);
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
