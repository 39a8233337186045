package dev.spanprofile.lifecycle;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.tracking.ActivationRecorder;

/**
 * Sampling switched on and off, in the one order that loses no sample and joins none to
 * the wrong span: on start the engine first, then the activation hook and the collector;
 * on stop the collector first, a last collection, then the hook and the engine. Also the
 * switches that take effect while sampling runs (exact CPU time, the time waiting for a
 * core).
 * <p>
 * Only one instance samples per JVM at a time: the activation hook and the native
 * profiler are process-wide. Whether it runs is the answer the span processors and the
 * collector read to decide whether to store spans and join samples.
 */
public final class Sampling {

	private static final System.Logger logger = System.getLogger(Sampling.class.getName());

	/** The instance that owns the JVM-wide hook and native profiler, if any. */
	private static final AtomicReference<Sampling> owner = new AtomicReference<>();

	private final ActivationRecorder recorder;

	private final Collector collector;

	/** Said once per JVM: the sampler's events rarely change. */
	private static volatile boolean cpuMissingLogged;

	/** Replaced only while stopped ({@link #useEngine}). */
	private volatile SamplingEngine engine;

	/**
	 * Whether requests' CPU time is read from their threads' CPU clocks while running
	 * ({@link #setExactCpuTime}).
	 */
	private volatile boolean exactCpuTime;

	/**
	 * Whether requests' time waiting for a core is read from the kernel while running
	 * ({@link #setCoreWait}); on unless turned off.
	 */
	private volatile boolean coreWait = true;

	/**
	 * Whether the sampler now samples CPU: a request's wait for a core is told from its
	 * time blocked by its CPU time, so without CPU its breakdown cannot show it, and the
	 * reads would be paid for nothing.
	 */
	private final BooleanSupplier cpuSampled;

	/**
	 * Spans are stored only while running: stored while nothing samples, they would have
	 * no profiles and push the profiles kept from before out of the store.
	 */
	private volatile boolean running;

	/**
	 * @param cpuSampled whether the sampler samples CPU now (read at each start and
	 * switch: the sampler changes only while stopped)
	 */
	public Sampling(SamplingEngine engine, ActivationRecorder recorder, Collector collector,
			BooleanSupplier cpuSampled) {
		this.cpuSampled = cpuSampled;
		this.engine = engine;
		this.recorder = recorder;
		this.collector = collector;
	}

	public boolean isRunning() {
		return this.running;
	}

	public SamplingEngine engine() {
		return this.engine;
	}

	/**
	 * Start sampling. Never throws: when the engine cannot run here the reason is logged
	 * and returned, and the application carries on unprofiled.
	 * @return {@code null} when sampling runs, else why not
	 */
	public synchronized String start() {
		if (this.running) {
			return null;
		}
		if (!owner.compareAndSet(null, this)) {
			String reason = "another spanprofile engine already runs in this JVM; only one can own the profiler";
			logger.log(System.Logger.Level.WARNING, "spanprofile not started: " + reason);
			return reason;
		}
		// Read before the engine starts: from the first sample it takes, what a thread
		// runs is unknown until its next change point (ends while stopped were not
		// recorded).
		long resumedAt = this.collector.now();
		try {
			this.engine.start();
		}
		catch (SamplerUnavailableException | RuntimeException | LinkageError ex) {
			owner.set(null);
			String reason = (ex.getMessage() != null) ? ex.getMessage() : "failed to start";
			logger.log(System.Logger.Level.WARNING,
					"spanprofile: " + this.engine.name() + " unavailable, spans will have no profiles: " + reason);
			return reason;
		}
		this.collector.resumedAt(resumedAt);
		this.recorder.setReadingCpuClocks(this.exactCpuTime);
		this.recorder.setReadingRunQueues(readsRunQueues(this.coreWait));
		this.recorder.setRecording(true);
		this.collector.start();
		this.running = true;
		return null;
	}

	/**
	 * Stop sampling; spans that started until now get their last samples, spans starting
	 * from now on are not stored.
	 */
	public synchronized void stop() {
		if (!this.running) {
			return;
		}
		this.collector.stop();
		// Spans started until now are sampled until now: collect their last samples, then
		// stop storing spans.
		this.collector.collectNow();
		this.running = false;
		this.recorder.setRecording(false);
		this.engine.close();
		owner.compareAndSet(this, null);
	}

	/** Sample with {@code engine} from the next start on. */
	public synchronized void useEngine(SamplingEngine engine) {
		if (this.running) {
			throw new IllegalStateException("the engine changes only while sampling is stopped");
		}
		this.engine = engine;
		this.collector.useEngine(engine);
	}

	/**
	 * Read a request's CPU time from its threads' CPU clocks where they enter and leave
	 * it (exact, whatever the sampling event) instead of counting it from samples; a
	 * system call on every entry and exit, so off unless asked for. Takes effect at once
	 * while running.
	 */
	public synchronized void setExactCpuTime(boolean exact) {
		this.exactCpuTime = exact;
		if (this.running) {
			this.recorder.setReadingCpuClocks(exact);
		}
	}

	public boolean isExactCpuTime() {
		return this.exactCpuTime;
	}

	/**
	 * Read how long a request's threads waited for a core (Linux's per-thread scheduler
	 * statistics) where they enter and leave it, with or without the CPU clocks; one
	 * system call on every entry and exit, where the kernel tells it. Takes effect at
	 * once while running.
	 */
	public synchronized void setCoreWait(boolean coreWait) {
		this.coreWait = coreWait;
		if (this.running) {
			this.recorder.setReadingRunQueues(readsRunQueues(coreWait));
		}
	}

	/**
	 * Whether to read the run-queue figures on their own: asked for, and shown, which
	 * takes CPU samples (the CPU clocks, when read, read them anyway).
	 */
	private boolean readsRunQueues(boolean coreWait) {
		if (coreWait && !this.cpuSampled.getAsBoolean() && !cpuMissingLogged) {
			cpuMissingLogged = true;
			logger.log(System.Logger.Level.INFO,
					"spanprofile: the time requests wait for a core is not read: CPU is not sampled, and a "
							+ "request's CPU time is what tells that wait from its time blocked (sample CPU too, "
							+ "e.g. spanprofile.event=ctimer,wall)");
		}
		return coreWait && this.cpuSampled.getAsBoolean();
	}

	public boolean isCoreWait() {
		return this.coreWait;
	}

}
