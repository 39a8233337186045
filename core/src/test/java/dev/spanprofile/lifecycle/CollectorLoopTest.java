package dev.spanprofile.lifecycle;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.spanprofile.attribution.SampleAttributor;
import dev.spanprofile.sampling.JfrWaitEngine;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.NanoClock;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The collector's loop: from its start to its stop its thread ticks, waits as long as the
 * tick says or until woken, and ticks again, in a wait Flight Recorder does not record.
 * But for the first test, on a clock the test steps and in waits the test ends.
 */
class CollectorLoopTest {

	private static final long MS = 1_000_000L;

	private static final List<String> WAIT_EVENTS = List.of("jdk.ThreadPark", "jdk.ThreadSleep", "jdk.JavaMonitorWait");

	private static final CollectorSettings SETTINGS = CollectorSettings.forDumpInterval(Duration.ofSeconds(3));

	private final AtomicLong clock = new AtomicLong(System.nanoTime());

	/** Collections run: the engine's dumps. */
	private final AtomicInteger dumps = new AtomicInteger();

	/** Run in each dump: what happens while the collector collects. */
	private volatile Runnable duringDump = () -> {
	};

	private final SteppedWait wait = new SteppedWait();

	@TempDir
	Path temp;

	@Test
	void collectsEveryIntervalWithoutAWaitFlightRecorderRecords() throws Exception {
		Duration interval = Duration.ofMillis(50);
		Collector collector = collector(CollectorSettings.forDumpInterval(interval), NanoClock.SYSTEM,
				UnrecordedWait::inSelector);
		Path file = this.temp.resolve("waits.jfr");
		long elapsedMillis;
		try (Recording recording = new Recording()) {
			for (String event : WAIT_EVENTS) {
				recording.enable(event).withThreshold(Duration.ofMillis(10));
			}
			recording.start();
			long started = System.nanoTime();
			collector.resumedAt(started);
			collector.start();
			Thread.sleep(1_000);
			collector.stop();
			elapsedMillis = (System.nanoTime() - started) / MS;
			recording.stop();
			recording.dump(file);
		}
		// Each collection an interval after the one before (the first after the start):
		// at most one per interval elapsed, and 20 in a second less the time the
		// collections and the thread's start take.
		assertThat(this.dumps.get()).isBetween(12, (int) (elapsedMillis / interval.toMillis()));
		List<RecordedEvent> collectorWaits = RecordingFile.readAllEvents(file)
			.stream()
			.filter((event) -> event.getThread() != null
					&& JfrWaitEngine.COLLECTOR_THREAD.equals(event.getThread().getJavaName()))
			.toList();
		assertThat(collectorWaits).isEmpty();
	}

	@Test
	void waitsAsLongAsTheTickSaysUnlessWokenUp() throws Exception {
		Collector collector = steppedCollector();
		try {
			assertThat(this.wait.nextWait()).as("the first wait: a quickest drain")
				.isEqualTo(SETTINGS.quickestDrain().toMillis());
			this.clock.addAndGet(SETTINGS.dumpInterval().toNanos());
			this.wait.elapse();
			assertThat(this.wait.nextWait()).as("after a collection with nothing to drain: a slowest drain")
				.isEqualTo(SETTINGS.slowestDrain().toMillis());
			assertThat(this.dumps.get()).isOne();
			// Woken 10 ms before the next collection is due: a drain, and a wait up to
			// the deadline.
			this.clock.addAndGet(SETTINGS.dumpInterval().toNanos() - 10 * MS);
			collector.wakeUp();
			assertThat(this.wait.nextWait()).as("woken up, it ticked at the time it was woken").isEqualTo(11);
			assertThat(this.dumps.get()).as("no collection before the deadline").isOne();
		}
		finally {
			collector.stop();
		}
	}

	@Test
	void aWakeUpDuringATickEndsTheNextWaitAtOnce() throws Exception {
		Collector collector = steppedCollector();
		// A change-point ring half full while the collector collects.
		this.duringDump = collector::wakeUp;
		try {
			this.wait.nextWait();
			this.clock.addAndGet(SETTINGS.dumpInterval().toNanos());
			this.wait.elapse();
			assertThat(this.wait.nextWait()).isEqualTo(SETTINGS.slowestDrain().toMillis());
			assertThat(this.wait.nextWait()).as("the wait after the tick that was woken up ended at once")
				.isEqualTo(SETTINGS.slowestDrain().toMillis());
			assertThat(this.dumps.get()).as("the second tick a drain").isOne();
		}
		finally {
			collector.stop();
		}
	}

	@Test
	void stopLetsNoFurtherTickStartAndEndsTheThread() throws Exception {
		Collector collector = steppedCollector();
		for (int i = 0; i < 3; i++) {
			this.wait.nextWait();
			this.clock.addAndGet(SETTINGS.dumpInterval().toNanos());
			this.wait.elapse();
		}
		this.wait.nextWait();
		collector.stop();
		assertThat(this.dumps.get()).as("a collection after each of the three waits that elapsed, none after the stop")
			.isEqualTo(3);
		assertThat(this.wait.waiter.isAlive()).isFalse();
		assertThat(this.wait.closed).isTrue();
		assertThat(this.wait.asked).as("no wait after the stop").isEmpty();
	}

	/** Started on the stepped clock, waiting in {@link #wait}. */
	private Collector steppedCollector() {
		Collector collector = collector(SETTINGS, this.clock::get, () -> this.wait);
		collector.resumedAt(this.clock.get());
		collector.start();
		return collector;
	}

	/** With an engine that delivers nothing and promises every sample up to now. */
	private Collector collector(CollectorSettings settings, NanoClock clock, Supplier<UnrecordedWait> waits) {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(100, Long.MAX_VALUE, false, RetentionSettings.recentOnly(), 100));
		SamplingEngine engine = new SamplingEngine() {

			@Override
			public String name() {
				return "stepped";
			}

			@Override
			public void start() {
			}

			@Override
			public long collect(SampleSink sink) {
				CollectorLoopTest.this.dumps.incrementAndGet();
				CollectorLoopTest.this.duringDump.run();
				return clock.nanoTime();
			}

			@Override
			public String activeEvent() {
				return "cpu";
			}

			@Override
			public void close() {
			}

		};
		return new Collector(engine, new SampleAttributor(store), store, ActivationRecorder.global(), settings,
				() -> true, clock, waits);
	}

	/**
	 * Waits the test ends itself: each wait the collector starts is announced with what
	 * it asked for, and lasts until the test elapses it or something wakes the collector
	 * up. A wake-up while no wait is under way ends the next one at once, as a selector's
	 * does.
	 */
	private static final class SteppedWait implements UnrecordedWait {

		final BlockingQueue<Long> asked = new LinkedBlockingQueue<>();

		private final Semaphore ends = new Semaphore(0);

		volatile Thread waiter;

		volatile boolean closed;

		@Override
		public void upTo(long millis) {
			this.waiter = Thread.currentThread();
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
