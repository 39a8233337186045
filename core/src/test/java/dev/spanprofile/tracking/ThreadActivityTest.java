package dev.spanprofile.tracking;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadActivityTest {

	private final List<String> drained = new ArrayList<>();

	private final ThreadActivity.ChangePointSink sink = new ThreadActivity.ChangePointSink() {

		@Override
		public void changed(long threadId, long time, Object span) {
			ThreadActivityTest.this.drained.add(time + "=" + span);
		}

		@Override
		public void gap(long threadId, long time) {
			ThreadActivityTest.this.drained.add(time + "=GAP");
		}

	};

	@Test
	void drainsPointsInOrderOnce() {
		ThreadActivity activity = new ThreadActivity(Thread.currentThread(), 8);
		activity.record(10, "a", -1, -1, 0);
		activity.record(20, null, -1, -1, 0);
		assertThat(activity.drainTo(this.sink)).isEqualTo(2);
		assertThat(activity.drainTo(this.sink)).isZero();
		activity.record(30, "b", -1, -1, 0);
		activity.drainTo(this.sink);
		assertThat(this.drained).containsExactly("10=a", "20=null", "30=b");
	}

	@Test
	void reportsAGapInsteadOfWrongPointsWhenTheWriterLapsTheReader() {
		ThreadActivity activity = new ThreadActivity(Thread.currentThread(), 4);
		activity.record(10, "a", -1, -1, 0);
		activity.drainTo(this.sink);
		for (int i = 1; i <= 6; i++) {
			activity.record(10 + i * 10, "s" + i, -1, -1, 0);
		}
		activity.drainTo(this.sink);
		// Two of six points were overwritten, and the oldest survivor is not trusted
		// either: the writer's next record would overwrite it, and a reader cannot tell
		// whether that has begun. The state after 10 is unknown until the oldest trusted
		// point.
		assertThat(this.drained).containsExactly("10=a", "11=GAP", "50=s4", "60=s5", "70=s6");
	}

	@Test
	void aPointThatFillsHalfTheRingSinceTheLastDrainSaysSoOnce() {
		ThreadActivity activity = new ThreadActivity(Thread.currentThread(), 8);
		List<Boolean> halfFull = new ArrayList<>();
		for (int i = 1; i <= 7; i++) {
			halfFull.add(activity.record(i * 10, "s" + i, -1, -1, 0));
		}
		assertThat(halfFull).containsExactly(false, false, false, true, false, false, false);
		assertThat(activity.drainTo(this.sink)).as("a lap counts the points lost too").isEqualTo(7);
		halfFull.clear();
		for (int i = 8; i <= 12; i++) {
			halfFull.add(activity.record(i * 10, "s" + i, -1, -1, 0));
		}
		assertThat(halfFull).as("counted from the drain").containsExactly(false, false, false, true, false);
	}

	@Test
	void recorderAsksForADrainWhenAThreadsRingIsHalfFull() {
		ActivationRecorder recorder = new ActivationRecorder(8);
		List<Integer> wanted = new ArrayList<>();
		recorder.setDrainWanted(() -> wanted.add(recorder.trackedThreads()));
		recorder.setRecording(true);
		for (int i = 0; i < 3; i++) {
			recorder.spanActivated("s" + i);
		}
		assertThat(wanted).isEmpty();
		recorder.spanActivated("s3");
		assertThat(wanted).hasSize(1);
		recorder.drainTo(this.sink);
		for (int i = 4; i < 8; i++) {
			recorder.spanActivated("s" + i);
		}
		assertThat(wanted).as("again four points after the drain").hasSize(2);
		recorder.drainTo(this.sink);
		recorder.setDrainWanted(null);
		for (int i = 8; i < 12; i++) {
			recorder.spanActivated("s" + i);
		}
		assertThat(wanted).as("nobody to tell").hasSize(2);
	}

	@Test
	void recorderSkipsEverythingWhileNotRecording() {
		ActivationRecorder recorder = new ActivationRecorder(8);
		recorder.spanActivated("ignored");
		assertThat(recorder.trackedThreads()).isZero();
		recorder.setRecording(true);
		recorder.spanActivated("kept");
		recorder.drainTo(this.sink);
		assertThat(this.drained).hasSize(1).first().asString().endsWith("=kept");
	}

	@Test
	void recorderReadsTheThreadsCpuClockOnlyWhenAskedTo() {
		List<Long> clocks = new ArrayList<>();
		ThreadActivity.ChangePointSink withClocks = clocksInto(clocks);
		ActivationRecorder recorder = new ActivationRecorder(8);
		recorder.setRecording(true);
		assertThat(recorder.isReadingCpuClocks()).as("the default").isFalse();
		recorder.spanActivated("first");
		recorder.spanActivated(null);
		recorder.setReadingCpuClocks(true);
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long before = threads.getCurrentThreadCpuTime();
		recorder.spanActivated("second");
		recorder.spanActivated("second's child");
		recorder.spanActivated(null);
		long after = threads.getCurrentThreadCpuTime();
		recorder.drainTo(withClocks);
		// Unread (-1) without the switch; with it, this thread's own clock, read where it
		// enters and leaves spans only.
		assertThat(clocks).hasSize(5);
		assertThat(clocks.subList(0, 2)).containsOnly(-1L);
		assertThat(clocks.get(2)).as("read on entering").isBetween(before, after);
		assertThat(clocks.get(3)).isEqualTo(-1L);
		assertThat(clocks.get(4)).as("read on leaving").isBetween(clocks.get(2), after);
	}

	/**
	 * A Spring MVC request with Micrometer's tracing and metrics: the observation filter
	 * opens the server span's scope and closes it, then, stopping the observation,
	 * Micrometer's {@code TracingAwareMeterObservationHandler} opens it once more to
	 * record its timers with the span current (for exemplars) and closes it. Entering and
	 * leaving the request twice read the CPU clock four times; coming back to the span
	 * just left, soon after, is one stretch that goes on from the clock read on leaving,
	 * so the second entry reads nothing.
	 */
	@Test
	void aThreadBackInTheSpanItJustLeftReadsNoClockOnTheWayIn() throws InterruptedException {
		List<Long> clocks = new ArrayList<>();
		ThreadActivity.ChangePointSink withClocks = clocksInto(clocks);
		Tracer tracer = SdkTracerProvider.builder().build().get("test");
		Span request = tracer.spanBuilder("http get /work").startSpan();
		Context inRequest = Context.root().with(request);
		Context inChild = inRequest.with(tracer.spanBuilder("work.compute").setParent(inRequest).startSpan());
		ActivationRecorder recorder = new ActivationRecorder(16);
		recorder.setRecording(true);
		recorder.setReadingCpuClocks(true);
		recorder.contextActivated(inRequest);
		recorder.contextActivated(inChild);
		recorder.contextActivated(inRequest);
		recorder.contextActivated(Context.root());
		recorder.contextActivated(inRequest);
		recorder.contextActivated(Context.root());
		recorder.drainTo(withClocks);
		assertThat(clocks).hasSize(6);
		assertThat(clocks.get(4)).as("back in the span just left").isEqualTo(ThreadActivity.CLOCK_CONTINUED);
		assertThat(clocks.stream().filter((clock) -> clock >= 0)).as("reads in %s", clocks).hasSize(3);

		// Back much later, or in another span: the thread may have done other work
		// meanwhile, so the clock is read.
		clocks.clear();
		Thread.sleep(5);
		recorder.contextActivated(inRequest);
		recorder.contextActivated(Context.root());
		Thread.sleep(5);
		recorder.contextActivated(inRequest);
		recorder.contextActivated(Context.root());
		recorder.contextActivated(Context.root().with(tracer.spanBuilder("next").startSpan()));
		recorder.drainTo(withClocks);
		assertThat(clocks).as("reads in %s", clocks).hasSize(5).allMatch((clock) -> clock >= 0);
	}

	@Test
	void recorderForgetsDeadThreadsAfterDrainingThem() throws InterruptedException {
		ActivationRecorder recorder = new ActivationRecorder(8);
		recorder.setRecording(true);
		Thread thread = new Thread(() -> recorder.spanActivated("from-dead-thread"));
		thread.start();
		thread.join();
		assertThat(recorder.trackedThreads()).isEqualTo(1);
		recorder.drainTo(this.sink);
		assertThat(this.drained).hasSize(1);
		assertThat(recorder.trackedThreads()).isZero();
	}

	/** A sink that keeps each change point's CPU clock reading, in order. */
	private static ThreadActivity.ChangePointSink clocksInto(List<Long> clocks) {
		return new ThreadActivity.ChangePointSink() {

			@Override
			public void changed(long threadId, long time, Object span) {
			}

			@Override
			public void changed(long threadId, long time, Object span, long threadCpuNanos) {
				clocks.add(threadCpuNanos);
			}

			@Override
			public void gap(long threadId, long time) {
			}

		};
	}

}
