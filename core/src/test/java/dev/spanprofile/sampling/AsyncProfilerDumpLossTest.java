package dev.spanprofile.sampling;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import dev.spanprofile.profile.FrameTable;
import one.profiler.AsyncProfiler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While async-profiler writes a chunk ({@code dump}) it holds all its locks, and every
 * sample, allocation or lock event recorded meanwhile is dropped (counted as skipped):
 * the share lost follows the share of time spent dumping. Measured with the engine's own
 * recording command, on a workload that allocates, contends and burns CPU at once.
 */
class AsyncProfilerDumpLossTest {

	static volatile Object escape;

	@Test
	void eventsAreLostWhileADumpHoldsTheLocks() throws Exception {
		SamplerSettings settings = new SamplerSettings(
				Set.of(ProfilingEvent.CPU, ProfilingEvent.ALLOC, ProfilingEvent.LOCK), Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null, 32 * 1024, Duration.ZERO);
		Path file = Files.createTempFile("spanprofile-dump-loss", ".jfr");
		AsyncProfiler profiler = NativeProfiler.load(settings);
		AtomicBoolean running = new AtomicBoolean(true);
		List<Thread> workers = startWorkload(running);
		try {
			profiler.execute(new AsyncProfilerEngine(settings, new FrameTable()).startCommand(file));
			// 4 s each: about 150,000-250,000 events a schedule here, so the shares
			// below rest on hundreds (one dump a second) to thousands (every 50 ms)
			// of skipped events.
			Measured slow = measure(profiler, Duration.ofSeconds(1), 4);
			Measured fast = measure(profiler, Duration.ofMillis(50), 80);
			System.out.printf("dump every 1 s: %s%ndump every 50 ms: %s%n", slow, fast);
			assertThat(slow.total).as("events recorded").isGreaterThan(10_000);
			// The loss is the dumps': what is skipped is skipped while a dump holds
			// the locks (the metrics read around each dump count its skips; a
			// signal finding three lock slots busy between dumps is rare).
			assertThat((double) slow.skippedInDumps).as("skipped during dumps at one a second: %s", slow)
				.isGreaterThanOrEqualTo(0.9 * slow.skipped);
			assertThat((double) fast.skippedInDumps).as("skipped during dumps every 50 ms: %s", fast)
				.isGreaterThanOrEqualTo(0.9 * fast.skipped);
			// Dumps lose events, and no more than their share of the time allows:
			// a thread whose event is skipped records faster meanwhile, which made
			// the share lost up to 1.5 times the share of time dumping here. Every
			// 50 ms against once a second is not compared: that follows how long
			// each dump holds the locks, which the machine's load decides, and
			// repeated runs went both ways (every 50 ms 0.7-5.1 %, once a second
			// 0.4-1.1 %).
			// How many 80 dumps lose follows how long each holds the locks, which the
			// machine's load decides: 0.7-5.1 % of the events on loaded machines,
			// 0.06 % (124 events, dumps of 1.5 ms) on an idle one. So no share is
			// promised from below, only that dumps lose events at all.
			assertThat(fast.skippedInDumps).as("skipped during 80 dumps: %s", fast).isPositive();
			for (Measured schedule : List.of(slow, fast)) {
				assertThat((double) schedule.skippedInDumps / schedule.total)
					.as("share lost against three times the share of time dumping: %s", schedule)
					.isLessThanOrEqualTo(3 * schedule.dumpingShare());
			}
		}
		finally {
			running.set(false);
			for (Thread worker : workers) {
				worker.join();
			}
			profiler.execute("stop");
			Files.deleteIfExists(file);
		}
	}

	private static Measured measure(AsyncProfiler profiler, Duration every, int cycles) throws Exception {
		long[] before = metrics(profiler);
		long start = System.nanoTime();
		long dumping = 0;
		long skippedInDumps = 0;
		long[] took = new long[cycles];
		for (int i = 1; i <= cycles; i++) {
			// A schedule, not a wait for something: dumps at fixed times, as the
			// collector does them.
			for (long left; (left = start + i * every.toNanos() - System.nanoTime()) > 0;) {
				LockSupport.parkNanos(left);
			}
			// The metrics around each dump tell its skips from those between dumps; their
			// own time counts as dumping.
			long dumpStart = System.nanoTime();
			long skippedBefore = metrics(profiler)[1];
			profiler.execute("dump,jfr");
			skippedInDumps += metrics(profiler)[1] - skippedBefore;
			took[i - 1] = System.nanoTime() - dumpStart;
			dumping += took[i - 1];
		}
		java.util.Arrays.sort(took);
		long elapsed = System.nanoTime() - start;
		long[] after = metrics(profiler);
		return new Measured(every, cycles, elapsed, dumping, took[cycles / 2], took[cycles - 1], skippedInDumps,
				after[0] - before[0], after[1] - before[1]);
	}

	/**
	 * @return total events and skipped events so far
	 */
	private static long[] metrics(AsyncProfiler profiler) throws Exception {
		long total = -1;
		long skipped = -1;
		for (String line : profiler.execute("metrics").split("\n")) {
			String[] parts = line.trim().split(" ");
			if (parts[0].equals("samples_total")) {
				total = Long.parseLong(parts[1]);
			}
			else if (parts[0].equals("samples_skipped_total")) {
				skipped = Long.parseLong(parts[1]);
			}
		}
		assertThat(total).as("async-profiler reports samples_total").isNotNegative();
		assertThat(skipped).as("async-profiler reports samples_skipped_total").isNotNegative();
		return new long[] { total, skipped };
	}

	private static List<Thread> startWorkload(AtomicBoolean running) {
		Object monitor = new Object();
		List<Thread> threads = new ArrayList<>();
		threads.add(new Thread(() -> {
			for (int depth = 0; running.get(); depth = (depth + 1) % 64) {
				allocateAt(depth);
			}
		}, "allocator"));
		for (int i = 0; i < 2; i++) {
			threads.add(new Thread(() -> {
				while (running.get()) {
					synchronized (monitor) {
						spin(200_000);
					}
				}
			}, "contender-" + i));
		}
		threads.forEach(Thread::start);
		return threads;
	}

	/**
	 * Allocation at many stack depths: distinct stacks, as an application has, for the
	 * chunk's constant pool.
	 */
	private static void allocateAt(int depth) {
		if (depth > 0) {
			allocateAt(depth - 1);
			return;
		}
		for (int i = 0; i < 256; i++) {
			escape = new byte[1024];
		}
	}

	private static void spin(long nanos) {
		long end = System.nanoTime() + nanos;
		while (System.nanoTime() < end) {
			Thread.onSpinWait();
		}
	}

	record Measured(Duration every, int cycles, long elapsedNanos, long dumpingNanos, long medianNanos,
			long longestNanos, long skippedInDumps, long total, long skipped) {

		double dumpingShare() {
			return (double) this.dumpingNanos / this.elapsedNanos;
		}

		@Override
		public String toString() {
			return String.format(
					"%d dumps, %.2f ms each on average, median %.2f ms, longest %.2f ms, %.2f %% of the time; %d of %d "
							+ "events skipped (%.2f %%), %d during dumps (%.2f %%)",
					this.cycles, this.dumpingNanos / 1e6 / this.cycles, this.medianNanos / 1e6, this.longestNanos / 1e6,
					100 * dumpingShare(), this.skipped, this.total, 100.0 * this.skipped / Math.max(1, this.total),
					this.skippedInDumps, 100.0 * this.skippedInDumps / Math.max(1, this.total));
		}
	}

}
