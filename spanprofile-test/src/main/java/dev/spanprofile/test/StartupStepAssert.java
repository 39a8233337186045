package dev.spanprofile.test;

import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.SelfTime;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupStep;

/**
 * One step of the start: its own time (its duration less its children's on its thread)
 * and duration as the clock measured them, and its own samples.
 */
public final class StartupStepAssert {

	private final SpanProfiler profiler;

	private final StartupRecording recording;

	private final StartupStep step;

	StartupStepAssert(SpanProfiler profiler, StartupRecording recording, StartupStep step) {
		this.profiler = profiler;
		this.recording = recording;
		this.step = step;
	}

	/**
	 * Its duration less its children's on its thread, in milliseconds: measured, exact.
	 */
	public MeasuredMillisAssert ownMillis() {
		long own = this.recording.ownNanos(this.recording.root().endEpochNanos()).getOrDefault(this.step, 0L);
		return new MeasuredMillisAssert(own / 1e6, "own time of startup step " + this.step + ", in ms");
	}

	/** Its duration, its children's included, in milliseconds: measured, exact. */
	public MeasuredMillisAssert durationMillis() {
		return new MeasuredMillisAssert(this.step.durationNanos(this.recording.root().endEpochNanos()) / 1e6,
				"duration of startup step " + this.step + ", in ms");
	}

	/** Its own CPU time, from its samples. */
	public SampledMillisAssert cpuMillis() {
		return new SampledMillisAssert("own CPU of startup step " + this.step, this.step.weight(SampleKind.CPU),
				StartupAssert.interval(this.profiler));
	}

	/** The part of its own CPU spent loading classes, from its samples. */
	public SampledMillisAssert classLoadingMillis() {
		return new SampledMillisAssert("class loading of startup step " + this.step, this.step.classLoadingCpuSamples(),
				StartupAssert.interval(this.profiler));
	}

	/**
	 * The share of its own CPU samples with a frame whose name contains {@code frame}.
	 * @throws IllegalStateException when its graph was not kept (outside the
	 * {@code spanprofile.startup.max-graphs} steps with the most own time)
	 */
	public ShareAssert cpuShareUnder(String frame) {
		StartupAssert.interval(this.profiler);
		StackTree cpu = this.step.samples(SampleKind.CPU);
		if (cpu == null) {
			throw new IllegalStateException("The samples of startup step " + this.step + " were not kept: only the "
					+ this.recording.settings().maxGraphs() + " steps with the most own time keep theirs "
					+ "(spanprofile.startup.max-graphs)");
		}
		FrameTable frames = this.profiler.store().frames();
		AtomicLong hits = new AtomicLong();
		cpu.visit((path, depth, total, self) -> {
			if (self == 0) {
				return;
			}
			for (int i = 0; i < depth; i++) {
				String name = frames.name(path[i]);
				if (name != null && name.contains(frame)) {
					hits.addAndGet(self);
					return;
				}
			}
		});
		return new ShareAssert(() -> evidence(cpu, frames), SampleKind.CPU, "\"" + frame + "\"", hits.get(),
				cpu.totalSamples());
	}

	private String evidence(StackTree cpu, FrameTable frames) {
		StringBuilder out = new StringBuilder("\nOwn CPU samples of startup step ").append(this.step)
			.append(", top self-time frames:");
		for (SelfTime.Entry entry : SelfTime.top(cpu, frames, 5)) {
			out.append("\n  ").append(entry.samples()).append("  ").append(entry.frame());
		}
		return out.toString();
	}

}
