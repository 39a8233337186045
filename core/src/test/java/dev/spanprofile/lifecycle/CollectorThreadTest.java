package dev.spanprofile.lifecycle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
		CollectorThread collector = new CollectorThread(() -> {
			runs.incrementAndGet();
			return 60_000;
		}, 10);
		try {
			long deadline = System.nanoTime() + 5_000_000_000L;
			while (runs.get() == 0 && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
			assertThat(runs.get()).as("the first run, after its first wait").isEqualTo(1);
			Thread.sleep(200);
			assertThat(runs.get()).as("the task asked for a minute").isEqualTo(1);
			collector.wakeUp();
			deadline = System.nanoTime() + 5_000_000_000L;
			while (runs.get() == 1 && System.nanoTime() < deadline) {
				Thread.sleep(5);
			}
			assertThat(runs.get()).as("woken up").isEqualTo(2);
		}
		finally {
			collector.stop(5_000);
		}
	}

	@Test
	void stopLetsNoFurtherRunStartAndEndsTheThread() throws Exception {
		AtomicInteger runs = new AtomicInteger();
		CollectorThread collector = new CollectorThread(() -> {
			runs.incrementAndGet();
			return 10;
		}, 10);
		Thread.sleep(100);
		collector.stop(5_000);
		int stoppedAt = runs.get();
		// Ten periods of 10 ms at most, fewer while the thread starts on a busy machine.
		assertThat(stoppedAt).isBetween(3, 10);
		Thread.sleep(100);
		assertThat(runs.get()).isEqualTo(stoppedAt);
		assertThat(collector.isAlive()).isFalse();
	}

}
