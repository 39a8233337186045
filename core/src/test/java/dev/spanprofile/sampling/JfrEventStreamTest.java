package dev.spanprofile.sampling;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.tracking.MonotonicEpoch;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A Flight Recorder stream's life as the join needs it: its instants mapped onto the
 * monotonic clock by the recording's own reference, whatever the wall clock did since the
 * chunk began; its end noticed; nothing handled once it is closed.
 */
class JfrEventStreamTest {

	private static final SamplerSettings CPU = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10),
			Path.of(System.getProperty("java.io.tmpdir")), null, null);

	static volatile long escape;

	/**
	 * The wall clock read two seconds ahead of the one the recording's chunk was paired
	 * with, as after an NTP step or a resumed virtual machine: a pairing read at delivery
	 * would put every sample two seconds early, outside the stretch its thread ran.
	 */
	@Test
	void samplesKeepTheirTimeWhenTheWallClockWasStepped() throws Exception {
		long step = Duration.ofSeconds(2).toNanos();
		JfrStreamingEngine engine = new JfrStreamingEngine(CPU, new FrameTable(), () -> {
			MonotonicEpoch.Anchor now = MonotonicEpoch.Anchor.now();
			return new MonotonicEpoch.Anchor(now.epochNanos() + step, now.nanoTime());
		});
		AtomicLong inside = new AtomicLong();
		AtomicLong outside = new AtomicLong();
		long[] runs = new long[2];
		engine.start();
		try {
			Thread.sleep(300);
			long[] ran = new long[2];
			Thread busy = new Thread(() -> {
				ran[0] = System.nanoTime();
				burnCpu(Duration.ofMillis(600));
				ran[1] = System.nanoTime();
			}, "busy");
			busy.start();
			busy.join();
			runs[0] = ran[0];
			runs[1] = ran[1];
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			long upTo = 0;
			while (upTo < ran[1] && System.nanoTime() < deadline) {
				Thread.sleep(100);
				upTo = engine.collect((kind, thread, time, stack, weight) -> {
					if (thread == busy.getId()) {
						boolean within = time >= ran[0] - 20_000_000 && time <= ran[1] + 20_000_000;
						(within ? inside : outside).incrementAndGet();
					}
				});
			}
		}
		finally {
			engine.close();
		}
		System.out.printf("stepped wall clock: %d samples of the busy thread inside its run, %d outside%n",
				inside.get(), outside.get());
		// 600 ms of CPU at 10 ms. jdk.ExecutionSample (JDK 17) samples a thread that is
		// runnable in Java each period, on the CPU or not: at most one sample per 10 ms
		// of the run, however long a loaded machine made it.
		long periods = (runs[1] - runs[0]) / 10_000_000;
		assertThat(inside.get() + outside.get()).as("samples of the busy thread in %d periods", periods)
			.isBetween(12L, periods + 2);
		assertThat(outside.get()).as("samples stamped outside the stretch their thread ran").isZero();
	}

	/**
	 * Switched off, profiling must cost nothing: on JDK 17 to 20 the JVM's "JFR Periodic
	 * Tasks" thread wakes every 10 ms for good once the last recording stops
	 * (JDK-8302821), 100 wake-ups a second; with the idle recording left running it
	 * sleeps a second at a time.
	 */
	@Test
	void aClosedStreamLeavesFlightRecordersPeriodicThreadAsleep() throws Exception {
		Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's per-thread scheduler figures");
		JfrStreamingEngine engine = new JfrStreamingEngine(CPU, new FrameTable());
		engine.start();
		Thread.sleep(300);
		engine.close();
		Thread.sleep(300);
		Path periodic = periodicTaskThread();
		assertThat(periodic).as("Flight Recorder's periodic thread").isNotNull();
		long before = timesScheduled(periodic);
		Thread.sleep(1000);
		long wakeUps = timesScheduled(periodic) - before;
		assertThat(wakeUps).as("wake-ups of JFR's periodic thread in the second after the stream closed")
			.isBetween(0L, 10L);
		if (Runtime.version().feature() < 21) {
			assertThat(IdleRecording.isRunning()).isTrue();
		}
	}

	/**
	 * The idle recording shares every chunk spanprofile's streams write (a recording's
	 * data is the chunks written while it runs): it must let them go, or the repository
	 * would keep every event the streams consumed.
	 */
	@Test
	void theIdleRecordingHoldsNoChunksTheStreamsConsumed() throws Exception {
		Assumptions.assumeTrue(Runtime.version().feature() < 21, "JDK 17 to 20 only");
		long[] held = new long[6];
		for (int i = 0; i < held.length; i++) {
			// Each start and close of a recording begins a new chunk.
			JfrStreamingEngine engine = new JfrStreamingEngine(CPU, new FrameTable());
			engine.start();
			burnCpu(Duration.ofMillis(300));
			engine.close();
			held[i] = IdleRecording.bytesHeld();
		}
		// Measured: about 119 kB each time; without the limit 886 kB growing by 226 kB a
		// stream.
		System.out.println("idle recording, bytes held after each stream: " + Arrays.toString(held));
		assertThat(held[held.length - 1]).as("bytes held after %d streams, after the first: %d", held.length, held[0])
			.isBetween(1L, held[0] * 3 / 2);
	}

	private static Path periodicTaskThread() throws IOException {
		Path tasks = Path.of("/proc/self/task");
		if (!Files.isDirectory(tasks)) {
			return null;
		}
		try (Stream<Path> threads = Files.list(tasks)) {
			return threads.filter((thread) -> {
				try {
					return Files.readString(thread.resolve("comm")).trim().startsWith("JFR Periodic");
				}
				catch (IOException ex) {
					return false;
				}
			}).findFirst().orElse(null);
		}
	}

	/** Third field of schedstat: how often the thread was scheduled in. */
	private static long timesScheduled(Path thread) throws IOException {
		return Long.parseLong(Files.readString(thread.resolve("schedstat")).trim().split(" ")[2]);
	}

	/**
	 * Stopped from outside (jcmd JFR.stop): the engine says so instead of vouching for
	 * nothing more, forever.
	 */
	@Test
	void aStreamStoppedFromOutsideIsReported() throws Exception {
		Set<Long> before = new HashSet<>();
		for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
			before.add(recording.getId());
		}
		JfrStreamingEngine engine = new JfrStreamingEngine(CPU, new FrameTable());
		engine.start();
		try {
			Thread.sleep(500);
			int stopped = 0;
			for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
				if (!before.contains(recording.getId()) && recording.getState() == RecordingState.RUNNING) {
					recording.stop();
					stopped++;
				}
			}
			assertThat(stopped).as("the engine's recording, stopped from outside").isEqualTo(1);
			long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
			IOException failure = null;
			while (failure == null && System.nanoTime() < deadline) {
				try {
					engine.collect((kind, thread, time, stack, weight) -> {
					});
					Thread.sleep(100);
				}
				catch (IOException ex) {
					failure = ex;
				}
			}
			assertThat(failure).as("collect fails once the stream ended").isNotNull();
			assertThat(failure.getMessage()).contains("stream ended");
			assertThat(engine.note()).contains("stream ended");
		}
		finally {
			engine.close();
		}
	}

	/**
	 * Closed in the middle of a delivery, a stream hands nothing more to its handlers
	 * once {@link JfrEventStream#close} has returned: a quick off/on switch would
	 * otherwise run the old stream's thread over state the new one uses.
	 */
	@Test
	void nothingIsHandledAfterCloseReturns() throws Exception {
		AtomicBoolean running = new AtomicBoolean(true);
		Thread busy = new Thread(() -> {
			while (running.get()) {
				burn(Duration.ofMillis(50));
			}
		}, "busy");
		busy.start();
		JfrEventStream stream = new JfrEventStream(new FrameTable(), new AtomicLong(), MonotonicEpoch.Anchor::now);
		CountDownLatch handling = new CountDownLatch(1);
		AtomicBoolean closeReturned = new AtomicBoolean();
		AtomicLong handledAfterClose = new AtomicLong();
		AtomicLong handled = new AtomicLong();
		stream.recording().enable(JfrStreamingEngine.EXECUTION_SAMPLE).withPeriod(Duration.ofMillis(10));
		stream.onEvent(JfrStreamingEngine.EXECUTION_SAMPLE, (event) -> {
			if (handled.incrementAndGet() == 1) {
				handling.countDown();
				sleep(300);
			}
			if (closeReturned.get()) {
				handledAfterClose.incrementAndGet();
			}
		});
		try {
			stream.start();
			assertThat(handling.await(10, TimeUnit.SECONDS)).as("a delivery under way").isTrue();
			stream.close();
			closeReturned.set(true);
			sleep(1500);
		}
		finally {
			running.set(false);
			busy.join();
			stream.close();
		}
		System.out.printf("close mid-delivery: %d events handled, %d after close returned%n", handled.get(),
				handledAfterClose.get());
		assertThat(handledAfterClose.get()).as("events handled after close returned").isZero();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Run until this thread has used {@code cpu} of CPU time, however long a loaded
	 * machine takes to give it.
	 */
	private static void burnCpu(Duration cpu) {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long end = threads.getCurrentThreadCpuTime() + cpu.toNanos();
		while (threads.getCurrentThreadCpuTime() < end) {
			burn(Duration.ofMillis(5));
		}
	}

	private static void burn(Duration duration) {
		long end = System.nanoTime() + duration.toNanos();
		long x = 1;
		while (System.nanoTime() < end) {
			for (int i = 0; i < 10_000; i++) {
				x = x * 6364136223846793005L + 1442695040888963407L;
			}
		}
		escape = x;
	}

}
