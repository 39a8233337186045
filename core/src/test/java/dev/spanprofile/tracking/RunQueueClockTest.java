package dev.spanprofile.tracking;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thread's run-queue wait, read where it enters and leaves spans beside its CPU clock:
 * the kernel's own figure for that thread, at those points only, and its file let go once
 * the thread is gone. Where the kernel does not tell it, nothing is read.
 */
class RunQueueClockTest {

	private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");

	@Test
	void availableOnLinuxAndSaysWhyNotElsewhere() {
		// A Linux build machine whose /proc hides the figure must fail here, loudly,
		// rather than let the tests below pass on UNREAD.
		assertThat(RunQueueClock.available()).as("%s", RunQueueClock.unavailableReason()).isEqualTo(LINUX);
		if (!LINUX) {
			assertThat(RunQueueClock.unavailableReason()).isEqualTo("not Linux");
			assertThat(new RunQueueClock().now()).isEqualTo(RunQueueClock.UNREAD);
		}
	}

	@Test
	void readsTheSecondFigure() {
		assertThat(RunQueueClock.secondField(text("3964863 13534073 2\n"))).isEqualTo(13534073);
		assertThat(RunQueueClock.secondField(text("0 0 0\n"))).isZero();
		assertThat(RunQueueClock.secondField(text("3964863\n"))).isEqualTo(RunQueueClock.UNREAD);
		assertThat(RunQueueClock.secondField(text(""))).isEqualTo(RunQueueClock.UNREAD);
	}

	@Test
	void readWithTheCpuClockWhereTheThreadEntersAndLeavesSpans() throws IOException {
		if (!LINUX) {
			return;
		}
		List<long[]> points = new ArrayList<>();
		ActivationRecorder recorder = new ActivationRecorder(8);
		recorder.setRecording(true);
		recorder.spanActivated("unmeasured");
		recorder.spanActivated(null);
		recorder.setReadingCpuClocks(true);
		assertThat(recorder.isReadingRunQueues()).isTrue();
		long before = kernelRunQueue();
		recorder.spanActivated("measured");
		recorder.spanActivated("measured's child");
		recorder.spanActivated(null);
		long after = kernelRunQueue();
		recorder.drainTo(new ThreadActivity.ChangePointSink() {

			@Override
			public void changed(long threadId, long time, Object span) {
			}

			@Override
			public void changed(long threadId, long time, Object span, long cpuNanos, long runQueueNanos, long readAt) {
				points.add(new long[] { cpuNanos, runQueueNanos });
			}

			@Override
			public void gap(long threadId, long time) {
			}

		});
		assertThat(points).hasSize(5);
		assertThat(points.subList(0, 2)).allMatch((point) -> point[1] == RunQueueClock.UNREAD);
		assertThat(points.get(2)[1]).as("read on entering").isBetween(before, after);
		assertThat(points.get(3)[1]).as("not read inside").isEqualTo(RunQueueClock.UNREAD);
		assertThat(points.get(4)[1]).as("read on leaving").isBetween(points.get(2)[1], after);
		recorder.setReadingCpuClocks(false);
		assertThat(recorder.isReadingRunQueues()).isFalse();
	}

	/**
	 * Spring MVC with Micrometer's tracing and metrics leaves a request twice: the
	 * observation filter closes its scope, the metrics handler opens it again and closes
	 * it within a millisecond. The return reads nothing; the second exit, that soon after
	 * it, stands on the figure read at the first: two reads a request, not three. Later
	 * than that, or with the CPU clock read as well, it reads its own.
	 */
	@Test
	void aQuickSecondExitStandsOnTheFirstExitsFigure() {
		if (!LINUX) {
			return;
		}
		ActivationRecorder recorder = recorderReadingRunQueues();
		List<long[]> points = new ArrayList<>();
		ThreadActivity.ChangePointSink sink = pointsInto(points);
		serveOneRequest(recorder);
		RunQueueClock clock = recorder.currentActivity().runQueueClock;
		// A request's four points, until one ran its course without the thread losing the
		// CPU for a millisecond between them (the first, nearly always).
		for (int attempt = 0; attempt < 20; attempt++) {
			recorder.drainTo(sink);
			points.clear();
			// Another request each time: a return to the last one would read nothing.
			String request = "request " + attempt;
			long readsBefore = clock.reads();
			recorder.spanActivated(request);
			recorder.spanActivated(null);
			recorder.spanActivated(request);
			recorder.spanActivated(null);
			long reads = clock.reads() - readsBefore;
			recorder.drainTo(sink);
			assertThat(points).hasSize(4);
			boolean quickReturn = points.get(2)[1] == ThreadActivity.CLOCK_CONTINUED;
			boolean quickExit = points.get(3)[0] - points.get(2)[0] < ActivationRecorder.RESUME_WITHIN_NANOS;
			if (quickReturn && quickExit) {
				assertThat(reads).as("entry and first exit only").isEqualTo(2);
				assertThat(points.get(3)[1]).as("the first exit's figure").isEqualTo(points.get(1)[1]).isNotNegative();
				break;
			}
			assertThat(reads).isEqualTo(quickReturn ? 3 : 4);
			assertThat(attempt).as("a request served without a millisecond's pause").isLessThan(19);
		}
		// A second exit later than that reads the kernel's figure again.
		points.clear();
		long readsBefore = clock.reads();
		recorder.spanActivated("a later one");
		recorder.spanActivated(null);
		recorder.spanActivated("a later one");
		long until = System.nanoTime() + 2 * ActivationRecorder.RESUME_WITHIN_NANOS;
		while (System.nanoTime() < until) {
			Thread.onSpinWait();
		}
		recorder.spanActivated(null);
		assertThat(clock.reads() - readsBefore).isEqualTo(3);
		// With the CPU clock read, every exit reads both.
		recorder.setReadingCpuClocks(true);
		readsBefore = clock.reads();
		for (int i = 0; i < 5; i++) {
			recorder.spanActivated("measured " + i);
			recorder.spanActivated(null);
			recorder.spanActivated("measured " + i);
			recorder.spanActivated(null);
		}
		assertThat(clock.reads() - readsBefore).isBetween(15L, 20L);
		recorder.setReadingCpuClocks(false);
		recorder.setRecording(false);
	}

	/** A sink that keeps each change point's time and run-queue figure, in order. */
	private static ThreadActivity.ChangePointSink pointsInto(List<long[]> points) {
		return new ThreadActivity.ChangePointSink() {

			@Override
			public void changed(long threadId, long time, Object span) {
				points.add(new long[] { time, RunQueueClock.UNREAD });
			}

			@Override
			public void changed(long threadId, long time, Object span, long cpuNanos, long runQueueNanos, long readAt) {
				points.add(new long[] { time, runQueueNanos });
			}

			@Override
			public void gap(long threadId, long time) {
			}

		};
	}

	@Test
	void aDeadThreadsFileIsClosedWhenItsLastPointsAreDrained() throws InterruptedException {
		if (!LINUX) {
			return;
		}
		ActivationRecorder recorder = recorderReadingRunQueues();
		AtomicReference<ThreadActivity> activity = new AtomicReference<>();
		Thread thread = new Thread(() -> activity.set(serveOneRequest(recorder)));
		thread.start();
		thread.join();
		assertThat(activity.get().runQueueClock.isOpen()).as("kept open for the thread's next read").isTrue();
		recorder.drainTo(IGNORED);
		assertThat(recorder.trackedThreads()).isZero();
		assertThat(activity.get().runQueueClock.isOpen()).as("closed with the dead thread's ring").isFalse();
	}

	@Test
	void aLiveThreadsFileIsClosedWhenRecordingStopsSoThatItDoesNotOutliveTheThread() throws InterruptedException {
		if (!LINUX) {
			return;
		}
		ActivationRecorder recorder = recorderReadingRunQueues();
		AtomicReference<ThreadActivity> activity = new AtomicReference<>();
		CountDownLatch served = new CountDownLatch(1);
		CountDownLatch stopped = new CountDownLatch(1);
		Thread thread = new Thread(() -> {
			activity.set(serveOneRequest(recorder));
			served.countDown();
			try {
				stopped.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			// Dies after the stop: no drain comes until the next start.
		});
		thread.start();
		served.await();
		assertThat(activity.get().runQueueClock.isOpen()).as("kept open for the thread's next read").isTrue();
		recorder.setRecording(false);
		assertThat(activity.get().runQueueClock.isOpen()).as("let go when recording stops").isFalse();
		stopped.countDown();
		thread.join();
		assertThat(activity.get().runQueueClock.isOpen()).isFalse();
		// Recording again, a live thread opens its file anew at its next read.
		recorder.setRecording(true);
		assertThat(serveOneRequest(recorder).runQueueClock.isOpen()).isTrue();
		recorder.setRecording(false);
	}

	private static ActivationRecorder recorderReadingRunQueues() {
		ActivationRecorder recorder = new ActivationRecorder(8);
		recorder.setRecording(true);
		recorder.setReadingRunQueues(true);
		return recorder;
	}

	/** Enters and leaves a span on the calling thread, which reads its run queue. */
	private static ThreadActivity serveOneRequest(ActivationRecorder recorder) {
		recorder.spanActivated("request");
		recorder.spanActivated(null);
		return recorder.currentActivity();
	}

	private static final ThreadActivity.ChangePointSink IGNORED = new ThreadActivity.ChangePointSink() {

		@Override
		public void changed(long threadId, long time, Object span) {
		}

		@Override
		public void gap(long threadId, long time) {
		}

	};

	private static ByteBuffer text(String text) {
		ByteBuffer buffer = ByteBuffer.allocate(64);
		buffer.put(text.getBytes(StandardCharsets.US_ASCII));
		return buffer;
	}

	/** The calling thread's run-queue wait, read the plain way. */
	static long kernelRunQueue() throws IOException {
		return Long.parseLong(Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split(" ")[1]);
	}

}
