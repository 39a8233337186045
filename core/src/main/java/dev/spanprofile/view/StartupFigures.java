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

	final double intervalMillis;

	final boolean waitsSampled;

	StartupFigures(StartupRecording recording, ViewContext context) {
		this.recording = recording;
		this.now = context.now();
		this.own = recording.ownNanos(this.now);
		this.intervalMillis = context.intervalMillis();
		this.waitsSampled = context.sampledKinds().contains(SampleKind.WAIT);
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
				this.waitsSampled ? millis(step.weight(SampleKind.WAIT)) : null, step.weight(SampleKind.ALLOC),
				step.weight(SampleKind.CPU), step.isRunning(), step.hasGraph() ? "startup/" + step.id() : null,
				hottest);
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
		return new StartupJson.Breakdown(millis(duration), cpuMillis, byCategory[0] * scale * this.intervalMillis,
				byCategory[1] * scale * this.intervalMillis, byCategory[2] * scale * this.intervalMillis,
				classLoading * this.intervalMillis, (jit >= 0) ? millis(jit) : null,
				(this.recording.classesLoaded() >= 0) ? this.recording.classesLoaded() : null, waitMillis,
				(waitMillis != null) ? Math.max(0, mainThreadMillis() - cpuMainThread() - waitsMainThread()) : null);
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

	private double waitsMainThread() {
		long nanos = 0;
		long thread = this.recording.root().threadId();
		for (StartupStep step : this.recording.steps()) {
			if (step.threadId() == thread) {
				nanos += step.weight(SampleKind.WAIT);
			}
		}
		return millis(nanos);
	}

	static double millis(long nanos) {
		return Math.round(nanos / 1e3) / 1e3;
	}

}
