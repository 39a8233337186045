package dev.spanprofile.startup;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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

	/**
	 * Each step's own wait for a core is its thread's figure at its end less at its
	 * beginning, less its children's on its thread; a child on another thread ran beside
	 * it, a figure read on another thread says nothing, and a step whose figure (or a
	 * child's) was not read has none.
	 */
	@Test
	void ownCoreWaitLeavesOutChildrenOnTheSameThread() throws Exception {
		Map<Long, Long> figures = new ConcurrentHashMap<>();
		long main = Thread.currentThread().getId();
		CoreWaitClock coreWait = () -> figures.getOrDefault(Thread.currentThread().getId(), -1L);
		figures.put(main, 10L);
		StartupRecording recording = new StartupRecording(StartupSettings.defaults(), this.frames, this.clock::get,
				coreWait, this.activated::add, "start", 0);
		assertThat(recording.measuresCoreWait()).isTrue();
		figures.put(main, 20L);
		StartupStep refresh = recording.begin("refresh");
		figures.put(main, 30L);
		StartupStep bean = recording.begin("bean");
		figures.put(main, 70L);
		recording.end(bean);
		Thread other = new Thread(() -> {
			figures.put(Thread.currentThread().getId(), 5L);
			StartupStep background = recording.begin("background");
			figures.put(Thread.currentThread().getId(), 105L);
			recording.end(background);
			StartupStep endedElsewhere = recording.begin("ended elsewhere");
			figures.put(Thread.currentThread().getId(), 200L);
			StartupStep unread = recording.begin("unread at its beginning");
			figures.remove(Thread.currentThread().getId());
			recording.end(unread);
			assertThat(endedElsewhere).isNotNull();
		});
		other.start();
		other.join();
		StartupStep background = recording.steps().get(3);
		StartupStep endedElsewhere = recording.steps().get(4);
		StartupStep unread = recording.steps().get(5);
		// Ended by the main thread, whose figure is not the step's.
		recording.end(endedElsewhere);
		figures.put(main, 100L);
		StartupStep stillRunning = recording.begin("left running");
		figures.put(main, 130L);
		recording.finish(-1, -1);

		Map<StartupStep, Long> own = recording.ownCoreWaitNanos();
		assertThat(bean.coreWaitNanos()).isEqualTo(40);
		assertThat(own.get(bean)).isEqualTo(40);
		assertThat(refresh.coreWaitNanos()).as("not ended").isNegative();
		assertThat(own.get(refresh)).isNegative();
		assertThat(own.get(background)).as("on its own thread").isEqualTo(100);
		assertThat(own.get(endedElsewhere)).as("ended on another thread").isNegative();
		assertThat(own.get(unread)).as("not read where it ended").isNegative();
		assertThat(own.get(stillRunning)).isNegative();
		assertThat(recording.root().coreWaitNanos()).isEqualTo(130 - 10);
		assertThat(own.get(recording.root())).as("a child on its thread unknown (the refresh never ended)")
			.isNegative();
	}

	@Test
	void ownCoreWaitOfTheWholeStartLeavesOutItsStepsOnItsThread() {
		AtomicLong figure = new AtomicLong(1_000);
		StartupRecording recording = new StartupRecording(StartupSettings.defaults(), this.frames, this.clock::get,
				figure::get, this.activated::add, "start", 0);
		figure.set(1_100);
		StartupStep refresh = recording.begin("refresh");
		figure.set(1_150);
		StartupStep bean = recording.begin("bean");
		figure.set(1_400);
		recording.end(bean);
		StartupStep second = recording.begin("second bean");
		figure.set(1_450);
		recording.end(second);
		figure.set(1_900);
		recording.end(refresh);
		figure.set(2_000);
		recording.finish(-1, -1);
		Map<StartupStep, Long> own = recording.ownCoreWaitNanos();
		assertThat(own.get(bean)).isEqualTo(250);
		assertThat(own.get(second)).isEqualTo(50);
		assertThat(own.get(refresh)).isEqualTo(800 - 250 - 50);
		assertThat(own.get(recording.root())).isEqualTo(1_000 - 800);
		assertThat(own.values().stream().mapToLong(Long::longValue).sum()).as("the whole start's, split")
			.isEqualTo(recording.root().coreWaitNanos());
	}

	@Test
	void withoutTheFigureNoStepHasOne() {
		StartupRecording recording = recording(StartupSettings.defaults());
		StartupStep bean = recording.begin("bean");
		recording.end(bean);
		recording.finish(-1, -1);
		assertThat(recording.measuresCoreWait()).isFalse();
		assertThat(recording.ownCoreWaitNanos().values()).allMatch((nanos) -> nanos < 0);
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
