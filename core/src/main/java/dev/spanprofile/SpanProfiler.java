package dev.spanprofile;

import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.attribution.AttributionCounters;
import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.attribution.SampleAttributor;
import dev.spanprofile.cgroup.ThrottlingHistory;
import dev.spanprofile.lifecycle.CollectionCycles;
import dev.spanprofile.lifecycle.Collector;
import dev.spanprofile.lifecycle.CollectorSettings;
import dev.spanprofile.lifecycle.Sampling;
import dev.spanprofile.lifecycle.SpanLifecycle;
import dev.spanprofile.lifecycle.SpanLifecycleProcessor;
import dev.spanprofile.lifecycle.UnsampledRequests;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.sampling.SamplingEngineFactory;
import dev.spanprofile.slowlog.SlowSpanLog;
import dev.spanprofile.startup.CoreWaitClock;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.tracking.NanoClock;
import dev.spanprofile.tracking.ThreadRunQueues;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * The engine: samples threads, joins each sample to the span active on its thread at that
 * moment, and keeps the result in a bounded {@link SpanProfileStore}. This class wires
 * the parts together, starts and stops them, and gives access to them; in which order
 * sampling starts and stops is {@link Sampling}'s, and what the collector thread does,
 * and in which order, is {@link Collector}'s.
 * <p>
 * Only one engine can run per JVM: the activation hook and the native profiler are
 * process-wide.
 */
public final class SpanProfiler implements AutoCloseable {

	private static final System.Logger logger = System.getLogger(SpanProfiler.class.getName());

	/** Replaced, with the engine, by {@link #resample}. */
	private volatile SpanProfilerSettings settings;

	private final SpanProfileStore store;

	private final NameAggregates aggregates;

	private final SampleAttributor attributor;

	/**
	 * Makes the engine for other sampler settings; {@code null} when the engine was
	 * supplied as it is.
	 */
	private final SamplingEngineFactory engines;

	private final ActivationRecorder recorder = ActivationRecorder.global();

	/** The one clock inside the engine. */
	private final NanoClock clock;

	private final Collector collector;

	private final Sampling sampling;

	private final UnsampledRequests unsampledRequests;

	/** The container's CPU throttling, read once per collection. */
	private final ThrottlingHistory throttling;

	/** The application's start, when it was recorded with this engine. */
	private volatile StartupRecording startup;

	/** Whether waits were sampled when the start's recording began. */
	private volatile boolean startupWaits;

	/**
	 * Why sampling does not run, while it does not: never started, stopped, or the last
	 * start failed.
	 */
	private volatile ProfilerState notRunning = ProfilerState.NEW;

	private volatile String handOffHint;

	/**
	 * A profiler whose engine {@code engines} makes, for the settings' sampler and for
	 * any other one asked for at run time ({@link #resample}).
	 */
	public SpanProfiler(SpanProfilerSettings settings, SamplingEngineFactory engines) {
		this(settings, engines, (frames) -> engines.create(settings.sampler(), frames), NanoClock.SYSTEM);
	}

	/**
	 * A profiler with the engine {@code engineFactory} makes, which {@link #resample}
	 * cannot replace.
	 */
	public SpanProfiler(SpanProfilerSettings settings, Function<FrameTable, SamplingEngine> engineFactory) {
		this(settings, null, engineFactory, NanoClock.SYSTEM);
	}

	/**
	 * As {@link #SpanProfiler(SpanProfilerSettings, Function)}, on {@code clock} instead
	 * of {@code System.nanoTime()}: for tests that step the engine's time.
	 */
	public SpanProfiler(SpanProfilerSettings settings, Function<FrameTable, SamplingEngine> engineFactory,
			NanoClock clock) {
		this(settings, null, engineFactory, clock);
	}

	private SpanProfiler(SpanProfilerSettings settings, SamplingEngineFactory engines,
			Function<FrameTable, SamplingEngine> engineFactory, NanoClock clock) {
		this.engines = engines;
		this.settings = settings;
		this.clock = clock;
		this.store = new SpanProfileStore(settings.store(), clock::epochNanos);
		this.aggregates = new NameAggregates(settings.aggregate(), this.store.frames(), clock::epochNanos,
				this::cpuIntervalNanos);
		// The one place a finished request's profile is folded into its name's aggregates
		// (on the collector's thread, once every sample up to its end is joined).
		this.store.onRequestComplete(this.aggregates::fold);
		this.attributor = new SampleAttributor(this.store, clock);
		SamplingEngine engine = engineFactory.apply(this.store.frames());
		this.unsampledRequests = new UnsampledRequests(this.recorder, this.aggregates, clock);
		this.attributor.untracedRequestsRunBy(this.unsampledRequests::anyStarted);
		// And the one place an unsampled request's samples are folded into its name's.
		this.store.onUnsampledComplete(this.unsampledRequests::complete);
		this.collector = new Collector(engine, this.attributor, this.store, this.recorder,
				CollectorSettings.forDumpInterval(settings.dumpInterval()), this::isRunning, clock);
		this.sampling = new Sampling(engine, this.recorder, this.collector, () -> cpuIntervalNanos() >= 0);
		this.throttling = ThrottlingHistory.of(Path.of("/"), clock::epochNanos);
		if (this.throttling.available()) {
			this.collector.beforeHandOff(this.throttling::read);
		}
		if (settings.slowSpanLog().enabled()) {
			// The kinds as sampled when each line is written: resample may add the waits.
			this.store.onRequestComplete(
					new SlowSpanLog(settings.slowSpanLog(), this.store.frames(), () -> this.settings.sampler().kinds(),
							() -> this.settings.sampler().interval(), clock::nanoTime, this.throttling));
		}
	}

	public SpanProfilerSettings settings() {
		return this.settings;
	}

	/** The CPU time one CPU sample stands for, as requests are folded; -1 without CPU. */
	private long cpuIntervalNanos() {
		SamplerSettings sampler = this.settings.sampler();
		return (sampler.cpuEvent() != null) ? sampler.interval().toNanos() : -1;
	}

	public SpanProfileStore store() {
		return this.store;
	}

	/**
	 * The container's CPU throttling over time, read at each collection;
	 * {@link ThrottlingHistory#NONE} where the process's control group has no CPU limit
	 * figures.
	 */
	public ThrottlingHistory throttling() {
		return this.throttling;
	}

	/** Profiles and latency per local-root span name over the aggregate window. */
	public NameAggregates aggregates() {
		return this.aggregates;
	}

	/**
	 * Call {@code listener} once for each stored local root whose profile is complete:
	 * every sample up to its end has been joined (or the store has to drop it before,
	 * with no room to keep it awaiting its samples). Runs on the collector thread only:
	 * keep it short.
	 */
	public void onProfileComplete(Consumer<SpanRecord> listener) {
		this.store.onRequestComplete(listener);
	}

	/**
	 * The processor that reports span starts and ends to this engine; register it with
	 * the tracer provider.
	 * @param excluded spans (with their whole local request, if a root) not to keep
	 */
	public SpanProcessor spanProcessor(Predicate<ReadableSpan> excluded) {
		return new SpanLifecycleProcessor(spanLifecycle(), excluded);
	}

	/**
	 * Span starts and ends reported by id, for tracers other than OpenTelemetry's SDK
	 * (which uses {@link #spanProcessor}); their activations go to
	 * {@link ActivationRecorder#spanActivated}.
	 */
	public SpanLifecycle spanLifecycle() {
		return new SpanLifecycle(this.store, this.aggregates, this::isRunning, this.collector,
				this.settings.slowSpanLog()::isSlow, this.clock);
	}

	/**
	 * Requests that tracing did not sample, reported by the web framework: counted and
	 * profiled under their name, never stored as spans.
	 */
	public UnsampledRequests unsampledRequests() {
		return this.unsampledRequests;
	}

	/**
	 * Record the application's start from {@code startEpochNanos}: the calling thread is
	 * in its root step from now on (see {@link StartupRecording}). Called once, on the
	 * thread that starts the application, with sampling started.
	 */
	public StartupRecording recordStartup(StartupSettings settings, String rootName, long startEpochNanos) {
		if (!isRunning()) {
			// Its steps would mark threads another engine's samples land on.
			throw new IllegalStateException("the profiler is not running");
		}
		StartupRecording recording = new StartupRecording(settings, this.store.frames(), this.clock::epochNanos,
				startupCoreWait(), this.recorder::backgroundActivity, rootName, startEpochNanos);
		this.startupWaits = this.settings.sampler().waits();
		this.startup = recording;
		this.store.onRequestComplete(recording.firstRequests());
		// Not only when someone reads the start: the graphs beyond the slowest steps' go
		// once the first request after it is handed on, on the collector's thread.
		this.store.onRequestComplete((request) -> recording.keepSlowestGraphs(completeUpToEpochNanos()));
		return recording;
	}

	/**
	 * The steps' time waiting for a core is read where the requests' is (on Linux, with
	 * {@link #setCoreWait core wait} or {@link #setExactCpuTime exact CPU time}, CPU
	 * sampled); elsewhere the start's page shows none, and one DEBUG line says why (the
	 * requests' INFO line says it where it was asked for).
	 */
	private CoreWaitClock startupCoreWait() {
		if (this.recorder.isReadingRunQueues()) {
			return CoreWaitClock.ofKernel();
		}
		String reason = !(isCoreWait() || isExactCpuTime()) ? "spanprofile.core-wait is off"
				: (ThreadRunQueues.unavailableReason() != null) ? ThreadRunQueues.unavailableReason()
						: "CPU is not sampled";
		logger.log(System.Logger.Level.DEBUG,
				"spanprofile: the start's steps' time waiting for a core is not measured: " + reason);
		return CoreWaitClock.NONE;
	}

	/** The application's start, or {@code null} when it was not recorded. */
	public StartupRecording startup() {
		return this.startup;
	}

	/**
	 * Whether the start's steps have their waits: waits were sampled when its recording
	 * began (by default they are recorded from when the application is ready only).
	 */
	public boolean startupRecordsWaits() {
		return this.startupWaits;
	}

	/**
	 * Read a request's CPU time from its threads' CPU clocks where they enter and leave
	 * it (exact, whatever the sampling event) instead of counting it from samples; a
	 * system call on every entry and exit, so off unless asked for. Takes effect at once
	 * while running.
	 */
	public void setExactCpuTime(boolean exact) {
		this.sampling.setExactCpuTime(exact);
	}

	public boolean isExactCpuTime() {
		return this.sampling.isExactCpuTime();
	}

	/**
	 * Read how long a request's threads waited for a core where they enter and leave it
	 * (on Linux, the kernel's per-thread figure; elsewhere one line says it is not
	 * measured), so that its breakdown states that time whether or not its CPU time is
	 * exact; a system call on every entry and exit. On by default; with
	 * {@link #setExactCpuTime exact CPU time} it is read whatever this says. Takes effect
	 * at once while running.
	 */
	public void setCoreWait(boolean coreWait) {
		this.sampling.setCoreWait(coreWait);
	}

	public boolean isCoreWait() {
		return this.sampling.isCoreWait();
	}

	/**
	 * Which of the application framework's switches keeps a request's context from
	 * following work it hands to another thread, where it is off, and how to turn it on
	 * ({@code spring.task.execution.propagate-context is false in application.properties:
	 * set it to true}); {@code null} (the default) when none is known to be off. A span
	 * page whose request reads as work done elsewhere without its context names it.
	 */
	public void setHandOffHint(String hint) {
		this.handOffHint = hint;
	}

	/** As set by {@link #setHandOffHint}, or {@code null}. */
	public String handOffHint() {
		return this.handOffHint;
	}

	/**
	 * Start sampling. Never throws: when the engine cannot run here the reason is logged
	 * once and reported by {@link #status()}, and the application carries on unprofiled.
	 * @return whether sampling started
	 */
	public synchronized boolean start() {
		if (this.sampling.isRunning()) {
			return true;
		}
		String refused = this.sampling.start();
		if (refused != null) {
			this.notRunning = ProfilerState.failed(refused);
			return false;
		}
		SamplingEngine engine = this.sampling.engine();
		String note = engine.note();
		logger.log(System.Logger.Level.INFO,
				"spanprofile started: " + engine.name() + ", event=" + engine.activeEvent() + ", interval="
						+ this.settings.sampler().interval().toMillis() + "ms"
						+ ((note != null) ? " (" + note + ")" : ""));
		return true;
	}

	/**
	 * Stop sampling; stored profiles stay readable, and spans starting from now on are
	 * not stored. {@link #start()} resumes.
	 */
	public synchronized void stop() {
		if (this.sampling.isRunning()) {
			// Read only once sampling no longer runs.
			this.notRunning = ProfilerState.STOPPED;
			this.sampling.stop();
		}
	}

	@Override
	public void close() {
		stop();
	}

	/**
	 * Sample as {@code sampler} says from now on, without a restart of the application:
	 * the engine is stopped (its samples so far collected), made anew and started again
	 * if it ran. Requests already stored keep their samples. When the new engine cannot
	 * start, the previous settings are restored and started again.
	 * @return {@code null} when sampling now follows {@code sampler}, else why not
	 * (nothing changed)
	 * @throws IllegalStateException when the engine was supplied as it is and cannot be
	 * made anew
	 */
	public synchronized String resample(SamplerSettings sampler) {
		if (this.engines == null) {
			throw new IllegalStateException("this profiler's engine was supplied as it is and cannot be changed");
		}
		boolean wasRunning = this.sampling.isRunning();
		SpanProfilerSettings previousSettings = this.settings;
		SamplingEngine previousEngine = this.sampling.engine();
		stop();
		useEngine(this.engines.create(sampler, this.store.frames()), previousSettings.withSampler(sampler));
		if (!wasRunning || start()) {
			return null;
		}
		String reason = this.notRunning.reason();
		useEngine(previousEngine, previousSettings);
		start();
		return reason;
	}

	private void useEngine(SamplingEngine engine, SpanProfilerSettings settings) {
		this.sampling.useEngine(engine);
		this.settings = settings;
	}

	/**
	 * Have one collection run now: join every sample taken so far to its span. Returns
	 * once the samples are in the store, so a caller can read a span's complete profile
	 * right after it ended. While sampling runs the collector thread runs it, and this
	 * waits for it (at most {@link CollectorSettings#readerWait()}).
	 */
	public void collectNow() {
		this.collector.collectNow();
	}

	/**
	 * Have what was sampled since the last collection joined unless one ran moments ago:
	 * for readers of profiles, who would otherwise wait up to a dump interval for a span
	 * that just ended. The collector thread collects; the reader waits for it.
	 */
	public void collectUnlessFresh() {
		this.collector.collectUnlessFresh();
	}

	/**
	 * Epoch nanoseconds up to which all samples have been joined; a span ended before
	 * this is complete.
	 */
	public long completeUpToEpochNanos() {
		return MonotonicEpoch.watermarkToEpochNanos(this.collector.completeUpTo());
	}

	/**
	 * Epoch nanoseconds up to which all samples but the waits have been joined (CPU,
	 * wall, allocations, locks): right after {@link #collectNow}, where the waits' stream
	 * delivers about a second later. The same as {@link #completeUpToEpochNanos} when
	 * waits are off.
	 */
	public long sampledUpToEpochNanos() {
		return MonotonicEpoch.watermarkToEpochNanos(this.collector.sampledUpTo());
	}

	private boolean isRunning() {
		return this.sampling.isRunning();
	}

	public ProfilerState state() {
		return this.sampling.isRunning() ? ProfilerState.RUNNING : this.notRunning;
	}

	public EngineStatus status() {
		ProfilerState state = state();
		SamplingEngine engine = this.sampling.engine();
		return new EngineStatus(engine.name(), engine.activeEvent(), state.isRunning(), state.reason(),
				state.isRunning() ? engine.note() : null);
	}

	/** Where samples went, per kind of sample. */
	public AttributionCounters attributionCounters() {
		return this.attributor.counters();
	}

	/** Where the cpu and wall samples went, in total. */
	public AttributionStats attributionStats() {
		return this.attributor.stats();
	}

	/** Collections run so far, their duration and what they left retained. */
	public CollectionCycles collectionCycles() {
		return this.collector.stats();
	}

}
