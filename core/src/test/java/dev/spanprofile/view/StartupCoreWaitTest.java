package dev.spanprofile.view;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import dev.spanprofile.BusyCores;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.startup.StartupSettings;
import dev.spanprofile.startup.StartupStep;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A start's steps' time waiting for a core, read on their thread where they begin and
 * end, on a machine whose every core busy threads want: a step and its child burn CPU
 * there, and each figure is held against the kernel's own counts for the same thread,
 * read by the thread just inside and just outside each step (never against what the wall
 * clock should give, so that a loaded build machine changes the figures, not the
 * verdict).
 */
class StartupCoreWaitTest {

	private static final long MS = 1_000_000;

	private static final int CORES = Runtime.getRuntime().availableProcessors();

	private final SpanProfiler profiler = new SpanProfiler(SpanProfilerSettings.defaults(),
			(frames) -> new IdleEngine());

	private final BusyCores busyCores = new BusyCores();

	@BeforeEach
	void linux() {
		assertThat(System.getProperty("os.name").toLowerCase(Locale.ROOT)).as("the kernel's figures are Linux's")
			.startsWith("linux");
	}

	@AfterEach
	void stop() throws InterruptedException {
		this.busyCores.stop();
		this.profiler.stop();
	}

	@Test
	void aStepCompetingForTheCoresHasItsOwnWaitForOneBetweenTheKernelsCounts() {
		assertThat(this.profiler.start()).isTrue();
		assertThat(this.profiler.isCoreWait()).as("the default").isTrue();
		StartupRecording recording = this.profiler.recordStartup(StartupSettings.defaults(), "start",
				MonotonicEpoch.nowEpochNanos());
		assertThat(recording.measuresCoreWait()).isTrue();
		this.busyCores.start(2 * CORES);

		Kernel outerBefore = kernelNow();
		StartupStep bean = recording.begin("spring.beans.instantiate");
		Kernel innerBefore = kernelNow();
		BusyCores.burnFor(100 * MS);
		Kernel childOuterBefore = kernelNow();
		StartupStep dependency = recording.begin("spring.beans.instantiate");
		Kernel childInnerBefore = kernelNow();
		BusyCores.burnFor(100 * MS);
		Kernel childInnerAfter = kernelNow();
		recording.end(dependency);
		Kernel childOuterAfter = kernelNow();
		BusyCores.burnFor(100 * MS);
		Kernel innerAfter = kernelNow();
		recording.end(bean);
		Kernel outerAfter = kernelNow();
		recording.finish(-1, -1);

		Kernel inner = innerAfter.since(innerBefore);
		Kernel outer = outerAfter.since(outerBefore);
		Kernel childInner = childInnerAfter.since(childInnerBefore);
		Kernel childOuter = childOuterAfter.since(childOuterBefore);
		assertThat(childInner.runQueue).as("%d busy threads on %d cores: the child waited", 2 * CORES + 1, CORES)
			.isGreaterThanOrEqualTo(childInner.wall / 4);
		assertThat(dependency.coreWaitNanos()).as("the child, kernel inside %s, outside %s", childInner, childOuter)
			.isBetween(childInner.runQueue, childOuter.runQueue);
		assertThat(bean.coreWaitNanos()).as("the bean with its child, kernel inside %s, outside %s", inner, outer)
			.isBetween(inner.runQueue, outer.runQueue);
		var own = recording.ownCoreWaitNanos();
		assertThat(own.get(dependency)).isEqualTo(dependency.coreWaitNanos());
		assertThat(own.get(bean)).as("the bean's own: its child's left out")
			.isBetween(inner.runQueue - childOuter.runQueue, outer.runQueue - childInner.runQueue)
			.isEqualTo(bean.coreWaitNanos() - dependency.coreWaitNanos());
		assertThat(own.get(recording.root())).as("the whole start's own: the bean's left out")
			.isEqualTo(recording.root().coreWaitNanos() - bean.coreWaitNanos())
			.isNotNegative();

		SpanProfileViews views = new SpanProfileViews(this.profiler, new FrameClassifier(List.of("app")));
		StartupJson json = (StartupJson) views.startup("timeline", null).render(ProfileFormat.JSON);
		StartupJson.Step beanJson = json.timeline()
			.stream()
			.filter((step) -> step.id() == bean.id())
			.findFirst()
			.orElseThrow();
		assertThat(beanJson.coreWaitMillis()).as("no recorded wait holds any of it")
			.isEqualTo(StartupFigures.millis(own.get(bean)));
		assertThat(json.breakdown().coreWaitMillis()).as("the main thread's over the start")
			.isEqualTo(StartupFigures.millis(recording.root().coreWaitNanos()));
		String page = (String) views.startup(null, null).render(ProfileFormat.HTML);
		assertThat(page).contains("waiting for a core", StartupView.ms(beanJson.coreWaitMillis()));
	}

	@Test
	void turnedOffNoFigureIsShown() {
		this.profiler.setCoreWait(false);
		assertThat(this.profiler.start()).isTrue();
		StartupRecording recording = this.profiler.recordStartup(StartupSettings.defaults(), "start",
				MonotonicEpoch.nowEpochNanos());
		StartupStep bean = recording.begin("spring.beans.instantiate");
		BusyCores.burnFor(5 * MS);
		recording.end(bean);
		recording.finish(-1, -1);
		assertThat(recording.measuresCoreWait()).isFalse();
		assertThat(bean.coreWaitNanos()).isNegative();
		SpanProfileViews views = new SpanProfileViews(this.profiler, new FrameClassifier(List.of("app")));
		StartupJson json = (StartupJson) views.startup("timeline", null).render(ProfileFormat.JSON);
		assertThat(json.timeline()).extracting(StartupJson.Step::coreWaitMillis).containsOnlyNulls();
		assertThat(json.breakdown().coreWaitMillis()).isNull();
		assertThat((String) views.startup(null, null).render(ProfileFormat.HTML)).doesNotContain("waiting for a core");
	}

	/**
	 * The calling thread's run-queue count, read the plain way, with the wall clock right
	 * before it (no system call in between, as the recording reads its own).
	 */
	private static Kernel kernelNow() {
		try (FileChannel file = FileChannel.open(Path.of("/proc/thread-self/schedstat"))) {
			ByteBuffer text = ByteBuffer.allocate(128);
			long wall = System.nanoTime();
			file.read(text, 0);
			String[] fields = new String(text.array(), 0, text.position(), StandardCharsets.US_ASCII).trim().split(" ");
			return new Kernel(Long.parseLong(fields[1]), wall);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private record Kernel(long runQueue, long wall) {

		Kernel since(Kernel before) {
			return new Kernel(this.runQueue - before.runQueue, this.wall - before.wall);
		}

	}

}
