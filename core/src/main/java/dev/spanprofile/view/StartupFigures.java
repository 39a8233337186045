package dev.spanprofile.view;

import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.FrameCategory;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.SelfTime;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupStep;

/**
 * The figures the startup views state, read once per response so that the page and its
 * JSON say the same: each step's own time, and its samples turned into time.
 */
final class StartupFigures {

	final StartupRecording recording;

	final long now;

	final Map<StartupStep, Long> own;

	/** Each step's own time waiting for a core; {@code null} where not measured. */
	final Map<StartupStep, Long> ownCoreWait;

	final double intervalMillis;

	final long intervalNanos;

	final boolean waitsSampled;

	StartupFigures(StartupRecording recording, ViewContext context) {
		this.recording = recording;
		this.now = context.now();
		this.own = recording.ownNanos(this.now);
		this.ownCoreWait = recording.measuresCoreWait() ? recording.ownCoreWaitNanos() : null;
		this.intervalMillis = context.intervalMillis();
		this.intervalNanos = context.intervalNanos();
		this.waitsSampled = context.startupWaitsSampled();
	}

	StartupJson.Step step(StartupStep step, FrameTable frames, boolean withFrames) {
		StackTree cpu = withFrames ? step.samples(SampleKind.CPU) : null;
		List<StartupJson.Frame> hottest = (cpu != null) ? SelfTime.top(cpu, frames, 3)
			.stream()
			.map((entry) -> new StartupJson.Frame(entry.frame(), entry.samples() * this.intervalMillis))
			.toList() : null;
		StartupStep parent = step.parent();
		return new StartupJson.Step(step.id(), (parent != null) ? parent.id() : null, step.name(), step.detail(),
				step.threadName(), millis(step.startEpochNanos() - this.recording.root().startEpochNanos()),
				millis(step.durationNanos(this.now)), millis(this.own.getOrDefault(step, 0L)),
				step.weight(SampleKind.CPU) * this.intervalMillis, step.classLoadingCpuSamples() * this.intervalMillis,
				this.waitsSampled ? millis(step.weight(SampleKind.WAIT)) : null, coreWaitMillis(step),
				step.weight(SampleKind.ALLOC), step.weight(SampleKind.CPU), step.isRunning(),
				step.hasGraph() ? "startup/" + step.id() : null, hottest);
	}

	/**
	 * The step's own time as the kernel counted it runnable but not running, on its
	 * thread while it was the innermost step there; {@code -1} where not known.
	 */
	long ownRunQueueNanos(StartupStep step) {
		return (this.ownCoreWait != null) ? this.ownCoreWait.getOrDefault(step, -1L) : -1;
	}

	/**
	 * The step's own time waiting for a core less what its recorded waits already hold,
	 * so that it adds to its CPU and waits as a request's breakdown does; {@code null}
	 * where not known.
	 */
	private Double coreWaitMillis(StartupStep step) {
		long runQueue = ownRunQueueNanos(step);
		if (runQueue < 0) {
			return null;
		}
		long waits = this.waitsSampled ? step.weight(SampleKind.WAIT) : 0;
		long cpu = step.weight(SampleKind.CPU) * Math.max(0, this.intervalNanos);
		return millis(runQueue - TimeBreakdown.coreWaitInWaits(runQueue,
				blockedNanos(this.own.getOrDefault(step, 0L), cpu, runQueue), waits));
	}

	/**
	 * A stretch's time blocked, estimated with CPU from samples (as a request's is,
	 * {@link dev.spanprofile.store.SpanCpuTime}): only to tell how much of the wait for a
	 * core recorded waits hold.
	 */
	static long blockedNanos(long nanos, long cpuNanos, long runQueueNanos) {
		return Math.max(0, nanos - cpuNanos - runQueueNanos);
	}

	/**
	 * The whole start's CPU samples by whose code ran (the innermost frame of the
	 * application or a library, the JDK's own work counted for its caller), class loading
	 * apart; JIT compilation, which runs on the compiler threads beside the start, as the
	 * JVM counted it.
	 */
	StartupJson.Breakdown breakdown(FrameTable frames, FrameClassifier classifier) {
		StackTree cpu = this.recording.whole(SampleKind.CPU);
		long[] byCategory = new long[3];
		cpu.visit((path, depth, total, self) -> {
			if (self == 0) {
				return;
			}
			int category = 2;
			for (int i = depth - 1; i >= 0; i--) {
				String name = frames.name(path[i]);
				FrameKind kind = frames.kind(path[i]);
				FrameCategory frameCategory = classifier.classify(name, kind);
				if (frameCategory == FrameCategory.APPLICATION) {
					category = 0;
					break;
				}
				if (frameCategory == FrameCategory.FRAMEWORK) {
					category = 1;
					break;
				}
			}
			byCategory[category] += self;
		});
		long classLoading = this.recording.wholeClassLoadingCpuSamples();
		long kept = byCategory[0] + byCategory[1] + byCategory[2];
		long all = this.recording.wholeWeight(SampleKind.CPU);
		// Class-loading samples are taken out of whichever code asked for the class, in
		// proportion; samples beyond the budget have no stack and are told as a total.
		double scale = (kept > 0) ? (double) (all - classLoading) / kept : 0;
		long duration = this.recording.root().durationNanos(this.now);
		long jit = this.recording.jitNanos();
		double cpuMillis = all * this.intervalMillis;
		Double waitMillis = this.waitsSampled ? millis(this.recording.wholeWeight(SampleKind.WAIT)) : null;
		long coreWaitNanos = coreWaitMainThreadNanos();
		Double coreWaitMillis = (coreWaitNanos >= 0) ? millis(coreWaitNanos) : null;
		return new StartupJson.Breakdown(millis(duration), cpuMillis, byCategory[0] * scale * this.intervalMillis,
				byCategory[1] * scale * this.intervalMillis, byCategory[2] * scale * this.intervalMillis,
				classLoading * this.intervalMillis, (jit >= 0) ? millis(jit) : null,
				(this.recording.classesLoaded() >= 0) ? this.recording.classesLoaded() : null, waitMillis,
				coreWaitMillis, (waitMillis != null) ? Math.max(0, mainThreadMillis() - cpuMainThread()
						- millis(waitsMainThreadNanos()) - ((coreWaitMillis != null) ? coreWaitMillis : 0)) : null);
	}

	/**
	 * The main thread's wait for a core over the start, less what its recorded waits
	 * hold; negative where not known.
	 */
	private long coreWaitMainThreadNanos() {
		StartupStep root = this.recording.root();
		long runQueue = (this.ownCoreWait != null) ? root.coreWaitNanos() : -1;
		if (runQueue < 0) {
			return -1;
		}
		long waits = this.waitsSampled ? waitsMainThreadNanos() : 0;
		long cpu = Math.round(cpuMainThread() * 1e6);
		return runQueue - TimeBreakdown.coreWaitInWaits(runQueue,
				blockedNanos(root.durationNanos(this.now), cpu, runQueue), waits);
	}

	/** The start's length on the thread that ran it. */
	private double mainThreadMillis() {
		return millis(this.recording.root().durationNanos(this.now));
	}

	private double cpuMainThread() {
		long samples = 0;
		long thread = this.recording.root().threadId();
		for (StartupStep step : this.recording.steps()) {
			if (step.threadId() == thread) {
				samples += step.weight(SampleKind.CPU);
			}
		}
		return samples * this.intervalMillis;
	}

	private long waitsMainThreadNanos() {
		long nanos = 0;
		long thread = this.recording.root().threadId();
		for (StartupStep step : this.recording.steps()) {
			if (step.threadId() == thread) {
				nanos += step.weight(SampleKind.WAIT);
			}
		}
		return nanos;
	}

	static double millis(long nanos) {
		return Math.round(nanos / 1e3) / 1e3;
	}

}
