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
