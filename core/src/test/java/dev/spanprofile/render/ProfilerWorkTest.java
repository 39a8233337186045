package dev.spanprofile.render;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The frame names are async-profiler 4.6's, read with {@code jfr print} from a recording
 * of {@code cpu,wall} on busy threads: the wall clock's signal handler, reached through
 * libc's signal trampoline, sometimes under the kernel's return from an interrupt.
 */
class ProfilerWorkTest {

	private static final String HANDLER = "libasyncProfiler-5074426373574794542.so.WallClock::signalHandler";

	private final FrameTable frames = new FrameTable();

	private final int run = this.frames.intern("java.lang.Thread.run", FrameKind.JAVA);

	private final int checkout = this.frames.intern("com.example.Checkout.pay", FrameKind.JAVA);

	private final int nanoTime = this.frames.intern("java.lang.System.nanoTime", FrameKind.JAVA);

	private final int restore = this.frames.intern("libc.so.6.__restore_rt", FrameKind.NATIVE);

	private final int handler = this.frames.intern(HANDLER, FrameKind.NATIVE);

	private final int walk = this.frames.intern("libasyncProfiler-5074426373574794542.so.StackWalker::walkVM",
			FrameKind.NATIVE);

	private final int irqExit = this.frames.intern("irqentry_exit_to_user_mode", FrameKind.KERNEL);

	@Test
	void samplesInTheProfilersSignalHandlerAreItsOwnWhereverTheyEnd() {
		StackTree cpu = new StackTree();
		cpu.add(new int[] { this.run, this.checkout }, 4);
		cpu.add(new int[] { this.run, this.checkout, this.nanoTime }, 1);
		cpu.add(new int[] { this.run, this.checkout, this.nanoTime, this.restore, this.handler }, 2);
		cpu.add(new int[] { this.run, this.checkout, this.restore, this.handler, this.walk }, 1);
		cpu.add(new int[] { this.run, this.checkout, this.nanoTime, this.restore, this.handler, this.irqExit }, 1);
		// The trampoline alone is libc's, not the profiler's.
		cpu.add(new int[] { this.run, this.restore }, 1);

		ProfilerWork work = ProfilerWork.split(cpu, this.frames);
		assertThat(work.profiler()).isEqualTo(4);
		assertThat(work.application().totalSamples()).isEqualTo(6);
		assertThat(CollapsedStacks.render(work.application(), this.frames)).isEqualTo("""
				java.lang.Thread.run;com.example.Checkout.pay 4
				java.lang.Thread.run;com.example.Checkout.pay;java.lang.System.nanoTime 1
				java.lang.Thread.run;libc.so.6.__restore_rt 1
				""");
		assertThat(SelfTime.top(work.application(), this.frames, 10)).extracting(SelfTime.Entry::frame)
			.doesNotContain(HANDLER);
		assertThat(cpu.totalSamples()).as("the split leaves its input alone").isEqualTo(10);
	}

	@Test
	void profilerFramesAreNativeFramesOfItsLibrary() {
		assertThat(FrameClassifier.isProfilerFrame(HANDLER, FrameKind.NATIVE)).isTrue();
		assertThat(FrameClassifier.isProfilerFrame("WallClock::signalHandler", FrameKind.NATIVE)).isTrue();
		assertThat(FrameClassifier.isProfilerFrame("libasyncProfiler-linux-x64-abc.so.Profiler::recordSample",
				FrameKind.NATIVE))
			.isTrue();
		assertThat(FrameClassifier.isProfilerFrame("libc.so.6.__restore_rt", FrameKind.NATIVE)).isFalse();
		assertThat(FrameClassifier.isProfilerFrame("libjvm.so.JavaThread::run", FrameKind.NATIVE)).isFalse();
		assertThat(FrameClassifier.isProfilerFrame("get_signal", FrameKind.KERNEL)).isFalse();
		assertThat(FrameClassifier.isProfilerFrame("one.profiler.AsyncProfiler.execute0", FrameKind.JAVA)).isFalse();
	}

}
