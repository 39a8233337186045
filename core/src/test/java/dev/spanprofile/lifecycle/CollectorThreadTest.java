package dev.spanprofile.lifecycle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.spanprofile.sampling.JfrWaitEngine;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CollectorThreadTest {

	private static final List<String> WAIT_EVENTS = List.of("jdk.ThreadPark", "jdk.ThreadSleep", "jdk.JavaMonitorWait");

	@TempDir
	Path temp;

	@Test
	void runsEveryPeriodWithoutAWaitFlightRecorderRecords() throws Exception {
		AtomicInteger runs = new AtomicInteger();
		Path file = this.temp.resolve("waits.jfr");
		try (Recording recording = new Recording()) {
			for (String event : WAIT_EVENTS) {
				recording.enable(event).withThreshold(Duration.ofMillis(10));
			}
			recording.start();
			CollectorThread collector = new CollectorThread(() -> {
				runs.incrementAndGet();
				return 50;
			}, 50);
			Thread.sleep(1_000);
			collector.stop(5_000);
			recording.stop();
			recording.dump(file);
		}
		// 20 periods in a second, less the time the runs and the thread's start take.
		assertThat(runs.get()).isBetween(12, 20);
		List<RecordedEvent> collectorWaits = RecordingFile.readAllEvents(file)
			.stream()
			.filter((event) -> event.getThread() != null
					&& JfrWaitEngine.COLLECTOR_THREAD.equals(event.getThread().getJavaName()))
			.toList();
		assertThat(collectorWaits).isEmpty();
	}

	@Test
	void waitsAsLongAsTheTaskSaysUnlessWokenUp() throws Exception {
		AtomicInteger runs = new AtomicInteger();
		SteppedWait wait = new SteppedWait();
		CollectorThread collector = new CollectorThread(() -> {
			runs.incrementAndGet();
			return 60_000;
		}, 10, wait);
		try {
			assertThat(wait.nextWait()).as("the first wait").isEqualTo(10);
			assertThat(runs.get()).isZero();
			wait.elapse();
			assertThat(wait.nextWait()).as("what the task asked for").isEqualTo(60_000);
			assertThat(runs.get()).isOne();
			collector.wakeUp();
			assertThat(wait.nextWait()).isEqualTo(60_000);
			assertThat(runs.get()).as("woken up").isEqualTo(2);
		}
		finally {
			collector.stop(5_000);
		}
	}

	@Test
	void aWakeUpDuringARunEndsTheNextWaitAtOnce() throws Exception {
		SteppedWait wait = new SteppedWait();
		AtomicInteger runs = new AtomicInteger();
		CollectorThread[] collector = new CollectorThread[1];
		collector[0] = new CollectorThread(() -> {
			if (runs.incrementAndGet() == 1) {
				// A change-point ring half full while the collector runs.
				collector[0].wakeUp();
			}
			return 60_000;
		}, 10, wait);
		try {
			wait.nextWait();
			wait.elapse();
			assertThat(wait.nextWait()).isEqualTo(60_000);
			assertThat(wait.nextWait()).as("the wait after the run that was woken up ended at once").isEqualTo(60_000);
			assertThat(runs.get()).isEqualTo(2);
		}
		finally {
			collector[0].stop(5_000);
		}
	}

	@Test
	void stopLetsNoFurtherRunStartAndEndsTheThread() throws Exception {
		AtomicInteger runs = new AtomicInteger();
		SteppedWait wait = new SteppedWait();
		CollectorThread collector = new CollectorThread(() -> {
			runs.incrementAndGet();
			return 10;
		}, 10, wait);
		for (int i = 0; i < 3; i++) {
			wait.nextWait();
			wait.elapse();
		}
		wait.nextWait();
		collector.stop(5_000);
		assertThat(runs.get()).as("a run after each of the three waits that elapsed, none after the stop").isEqualTo(3);
		assertThat(collector.isAlive()).isFalse();
		assertThat(wait.closed).isTrue();
		assertThat(wait.asked).as("no wait after the stop").isEmpty();
	}

	/**
	 * Waits the test ends itself: each wait the collector starts is announced with what
	 * it asked for, and lasts until the test elapses it or something wakes the collector
	 * up. A wake-up while no wait is under way ends the next one at once, as a selector's
	 * does.
	 */
	private static final class SteppedWait implements CollectorThread.Wait {

		final BlockingQueue<Long> asked = new LinkedBlockingQueue<>();

		private final Semaphore ends = new Semaphore(0);

		volatile boolean closed;

		@Override
		public void upTo(long millis) {
			this.asked.add(millis);
			this.ends.acquireUninterruptibly();
		}

		@Override
		public void wake() {
			this.ends.release();
		}

		@Override
		public void close() {
			this.closed = true;
		}

		/** The wait the collector started next (it waits in it until elapsed). */
		long nextWait() throws InterruptedException {
			Long millis = this.asked.poll(10, TimeUnit.SECONDS);
			assertThat(millis).as("the collector started a wait").isNotNull();
			return millis;
		}

		void elapse() {
			this.ends.release();
		}

	}

}
