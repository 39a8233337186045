package dev.spanprofile.startup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The step tree on a stepped clock: own times, what each thread is told is active, the
 * bounds on steps and graphs, and class loading told from a stack.
 */
class StartupRecordingTests {

	private final AtomicLong clock = new AtomicLong(1_000);

	private final List<Object> activated = new ArrayList<>();

	private final FrameTable frames = new FrameTable();

	private StartupRecording recording(StartupSettings settings) {
		return new StartupRecording(settings, this.frames, this.clock::get, this.activated::add, "start", 0);
	}

	@Test
	void ownTimeLeavesOutChildrenOnTheSameThreadAndTheInnermostStepIsActive() throws Exception {
		StartupRecording recording = recording(StartupSettings.defaults());
		this.clock.set(100);
		StartupStep refresh = recording.begin("refresh");
		this.clock.set(150);
		StartupStep bean = recording.begin("bean");
		bean.tag("beanName", "ownerRepository");
		this.clock.set(400);
		recording.end(bean);
		// A step on another thread runs beside the refresh, not inside it.
		Thread other = new Thread(() -> {
			StartupStep background = recording.begin("background");
			this.clock.set(900);
			recording.end(background);
		});
		other.start();
		other.join();
		this.clock.set(1000);
		recording.end(refresh);
		this.clock.set(1200);
		recording.finish(-1, -1);
		var own = recording.ownNanos(this.clock.get());
		assertThat(own.get(bean)).isEqualTo(250);
		assertThat(own.get(refresh)).isEqualTo(900 - 250);
		assertThat(own.get(recording.root())).isEqualTo(1200 - 900);
		StartupStep background = recording.steps().get(3);
		assertThat(background.parent()).isSameAs(recording.root());
		assertThat(own.get(background)).isEqualTo(500);
		assertThat(bean.detail()).isEqualTo("ownerRepository");
		assertThat(this.activated).containsExactly(recording.root(), refresh, bean, refresh, background, null,
				recording.root(), null);
		// The start is over: later steps (a lazy bean made by a request) are not
		// recorded.
		assertThat(recording.begin("late")).isNull();
	}

	@Test
	void stepsBeyondTheBoundAreLeftToTheirParent() {
		StartupRecording recording = recording(new StartupSettings(3, 1, 1 << 20));
		StartupStep first = recording.begin("a");
		StartupStep second = recording.begin("b");
		assertThat(recording.begin("c")).isNull();
		assertThat(recording.notRecorded()).isEqualTo(1);
		recording.end(second);
		recording.end(first);
		assertThat(recording.steps()).hasSize(3);
	}

	@Test
	void onlyTheSlowestStepsKeepTheirGraphsOnceTheirSamplesAreIn() {
		StartupRecording recording = recording(new StartupSettings(100, 1, 1 << 20));
		int[] stack = { this.frames.intern("com.example.Work.run", FrameKind.JAVA) };
		StartupStep fast = recording.begin("fast");
		fast.addSample(SampleKind.CPU, stack, 1, 0);
		this.clock.addAndGet(10);
		recording.end(fast);
		StartupStep slow = recording.begin("slow");
		slow.addSample(SampleKind.CPU, stack, 1, 0);
		this.clock.addAndGet(1_000_000);
		recording.end(slow);
		recording.finish(-1, -1);
		recording.keepSlowestGraphs(this.clock.get() - 1);
		assertThat(fast.hasGraph()).as("samples not all joined yet").isTrue();
		recording.keepSlowestGraphs(this.clock.get());
		assertThat(slow.hasGraph()).isTrue();
		assertThat(fast.hasGraph()).isFalse();
		assertThat(fast.weight(SampleKind.CPU)).as("figures stay").isEqualTo(1);
		assertThat(recording.wholeWeight(SampleKind.CPU)).isEqualTo(2);
	}

	@Test
	void samplesBeyondTheBudgetAreCountedNotKept() {
		StartupRecording recording = recording(new StartupSettings(100, 10, StartupRecording.BYTES_PER_NODE * 3));
		StartupStep step = recording.begin("step");
		for (int i = 0; i < 5; i++) {
			step.addSample(SampleKind.CPU,
					new int[] { this.frames.intern("com.example.Distinct" + i + ".run", FrameKind.JAVA) }, 1, 0);
		}
		assertThat(step.weight(SampleKind.CPU)).isEqualTo(5);
		assertThat(step.samples(SampleKind.CPU).totalSamples()).isLessThan(5);
		assertThat(recording.approximateBytes())
			.isLessThanOrEqualTo(StartupRecording.BYTES_PER_NODE * 3 + 2L * StartupRecording.BYTES_PER_STEP);
	}

	@Test
	void classLoadingIsToldByItsFrames() {
		StartupRecording recording = recording(StartupSettings.defaults());
		StartupStep step = recording.begin("bean");
		int app = this.frames.intern("com.example.Config.bean", FrameKind.JAVA);
		int load = this.frames.intern("java.lang.ClassLoader.loadClass", FrameKind.JAVA);
		int parse = this.frames.intern("ClassFileParser::parse_stream", FrameKind.NATIVE);
		step.addSample(SampleKind.CPU, new int[] { app, load }, 1, 0);
		step.addSample(SampleKind.CPU, new int[] { app, parse }, 1, 0);
		step.addSample(SampleKind.CPU, new int[] { app }, 1, 0);
		assertThat(step.classLoadingCpuSamples()).isEqualTo(2);
		assertThat(recording.wholeClassLoadingCpuSamples()).isEqualTo(2);
	}

}
