package dev.spanprofile;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A million spans through the real tracker, tracer and profiler: nested, from short-lived
 * threads, some never ended and some scopes never closed. Memory stays bounded, nothing
 * of the dead threads is kept, and no exception reaches the application.
 */
class MillionSpanLoadTest {

	private static final int MAX_SPANS = 1000;

	private static final long MAX_BYTES = 16L * 1024 * 1024;

	private static final int WAVES = 25;

	private static final int THREADS_PER_WAVE = 4;

	/** Each iteration is a request span with a child span. */
	private static final int ITERATIONS_PER_THREAD = 1_000_000 / 2 / (WAVES * THREADS_PER_WAVE);

	/**
	 * Generous: the conditions come true within a second or so, but CI machines are busy.
	 */
	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	static volatile long sink;

	@TempDir
	Path workDirectory;

	@Test
	void aMillionSpansLeaveBoundedMemoryAndNothingOfTheDeadThreads() throws Exception {
		ActivationRecorder recorder = ActivationRecorder.global();
		try (TracedProfiler traced = new TracedProfiler(new StoreSettings(MAX_SPANS, MAX_BYTES, true),
				this.workDirectory, (engine) -> engine)) {
			// The profiler samples from here on (it started a moment ago; the CPU of its
			// start is not counted).
			long processCpuBefore = processCpuNanos();
			// Measure from a profiler that has been through a collection cycle: its own
			// threads are tracked by then.
			long started = System.nanoTime();
			await("a first collection cycle").atMost(PATIENCE)
				.until(() -> traced.profiler.completeUpToEpochNanos() > MonotonicEpoch.toEpochNanos(started));
			int trackedBefore = recorder.trackedThreads();
			int timelinesBefore = traced.profiler.collectionCycles().retainedTimelines();
			long heapBefore = usedHeapAfterGc();

			LongAdder spans = new LongAdder();
			LongAdder loadCpu = new LongAdder();
			Queue<Throwable> escaped = new ConcurrentLinkedQueue<>();
			List<WeakReference<Thread>> deadThreads = new ArrayList<>();
			long heapHalfway = 0;
			long start = System.nanoTime();
			for (int wave = 0; wave < WAVES; wave++) {
				List<Thread> threads = new ArrayList<>();
				for (int t = 0; t < THREADS_PER_WAVE; t++) {
					Thread thread = new Thread(() -> requests(traced.tracer, spans, loadCpu, escaped),
							"load-" + wave + "-" + t);
					thread.setUncaughtExceptionHandler((dead, ex) -> escaped.add(ex));
					threads.add(thread);
					deadThreads.add(new WeakReference<>(thread));
					thread.start();
				}
				for (Thread thread : threads) {
					thread.join();
				}
				if (wave == WAVES / 2) {
					heapHalfway = usedHeapAfterGc();
				}
			}
			long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

			await("rings of dead threads forgotten").atMost(PATIENCE)
				.until(() -> recorder.trackedThreads() <= trackedBefore);
			await("timelines of dead threads forgotten").atMost(PATIENCE)
				.until(() -> traced.profiler.collectionCycles().retainedTimelines() <= timelinesBefore);
			// Every sample of the load taken, parsed and joined before the stats are
			// read.
			long loadEnded = System.nanoTime();
			await("the load's samples collected").atMost(PATIENCE).until(() -> {
				traced.profiler.collectNow();
				return traced.profiler.completeUpToEpochNanos() > MonotonicEpoch.toEpochNanos(loadEnded);
			});
			long heapAfter = usedHeapAfterGc();
			int threadsStillReachable = 0;
			for (WeakReference<Thread> thread : deadThreads) {
				threadsStillReachable += (thread.get() != null) ? 1 : 0;
			}
			SpanProfileStore store = traced.profiler.store();
			AttributionStats stats = traced.profiler.attributionStats();
			System.out
				.printf("load: %d spans on %d threads in %d ms (%.0f spans/s); heap used after GC: before %d KiB, "
						+ "halfway %d KiB, after %d KiB; store %d spans, ~%d KiB; tracked threads %d -> %d, timelines %d -> %d; "
						+ "dead threads still reachable %d; samples %s%n", spans.sum(), deadThreads.size(),
						elapsedMillis, spans.sum() * 1000.0 / elapsedMillis, heapBefore / 1024, heapHalfway / 1024,
						heapAfter / 1024, store.size(), store.approximateBytes() / 1024, trackedBefore,
						recorder.trackedThreads(), timelinesBefore,
						traced.profiler.collectionCycles().retainedTimelines(), threadsStillReachable, stats);

			assertThat(escaped).as("exceptions that reached the application").isEmpty();
			assertThat(spans.sum()).isGreaterThanOrEqualTo(1_000_000);
			assertThat(store.size()).as("stored spans").isLessThanOrEqualTo(2 * MAX_SPANS);
			assertThat(store.approximateBytes()).isLessThanOrEqualTo(MAX_BYTES);
			assertThat(threadsStillReachable).as("dead threads still reachable").isZero();
			// Half a million spans more must not show in the heap: a leak of even 32
			// bytes a span would be 16 MiB.
			assertThat(heapAfter - heapHalfway).as("heap growth over the second half").isLessThan(8L * 1024 * 1024);
			assertThat(heapAfter - heapBefore).as("heap growth over the whole run").isLessThan(32L * 1024 * 1024);
			// Every sample is counted once, attributed or not: at least one per interval
			// of the load threads' CPU, at most one per interval of the whole process's
			// (collector, JIT and GC threads included). Poisson noise on a few hundred
			// samples is ~5 %; the bounds are 4 standard deviations and more.
			double fromLoad = loadCpu.sum() / (double) TracedProfiler.INTERVAL.toNanos();
			double fromProcess = (processCpuNanos() - processCpuBefore) / (double) TracedProfiler.INTERVAL.toNanos();
			System.out.printf(
					"load: samples %d; expected at least ~%.0f (load threads' CPU), at most ~%.0f (process CPU)%n",
					stats.total(), fromLoad, fromProcess);
			assertThat((double) stats.total()).as("samples taken under load")
				.isBetween(0.8 * fromLoad, 1.25 * fromProcess);
		}
	}

	/** One short-lived application thread's requests. */
	private static void requests(Tracer tracer, LongAdder spans, LongAdder cpu, Queue<Throwable> escaped) {
		long cpuAtStart = threads.getCurrentThreadCpuTime();
		try {
			for (int i = 0; i < ITERATIONS_PER_THREAD; i++) {
				Span request = tracer.spanBuilder("request").setNoParent().startSpan();
				try (Scope outer = request.makeCurrent()) {
					Span child = tracer.spanBuilder("child").startSpan();
					try (Scope inner = child.makeCurrent()) {
						sink += work(i);
					}
					if (i % 100 != 0) {
						// One child in a hundred is never ended.
						child.end();
					}
				}
				if (i % 1000 != 0) {
					// One request in a thousand is never ended.
					request.end();
				}
				spans.add(2);
			}
			// The thread dies with a scope still open.
			tracer.spanBuilder("leaked").setNoParent().startSpan().makeCurrent();
			spans.increment();
		}
		catch (Throwable ex) {
			escaped.add(ex);
		}
		finally {
			cpu.add(threads.getCurrentThreadCpuTime() - cpuAtStart);
		}
	}

	private static long work(int seed) {
		long x = seed;
		for (int i = 0; i < 50; i++) {
			x = x * 31 + (x >>> 3);
		}
		return x;
	}

	private static long processCpuNanos() {
		return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
			.getProcessCpuTime();
	}

	/**
	 * Collect until the used heap stops shrinking (a collection can leave garbage that
	 * the next one frees).
	 */
	private static long usedHeapAfterGc() {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 10; i++) {
			System.gc();
			long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
			if (now >= used - 64 * 1024) {
				return Math.min(now, used);
			}
			used = now;
		}
		return used;
	}

}
