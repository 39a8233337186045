package dev.spanprofile;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A million spans through the real tracker, tracer and profiler: nested, from short-lived threads, some never
 * ended and some scopes never closed. Memory stays bounded, nothing of the dead threads is kept, and no exception
 * reaches the application.
 */
class MillionSpanLoadTest {

	private static final int MAX_SPANS = 1000;

	private static final long MAX_BYTES = 16L * 1024 * 1024;

	private static final int WAVES = 25;

	private static final int THREADS_PER_WAVE = 4;

	/** Each iteration is a request span with a child span. */
	private static final int ITERATIONS_PER_THREAD = 1_000_000 / 2 / (WAVES * THREADS_PER_WAVE);

	static volatile long sink;

	@TempDir
	Path workDirectory;

	@Test
	void aMillionSpansLeaveBoundedMemoryAndNothingOfTheDeadThreads() throws Exception {
		ActivationRecorder recorder = ActivationRecorder.global();
		try (TracedProfiler traced = new TracedProfiler(new StoreSettings(MAX_SPANS, MAX_BYTES, true),
				this.workDirectory, (engine) -> engine)) {
			// Threads of earlier tests are forgotten within a few drains.
			Thread.sleep(300);
			int trackedBefore = recorder.trackedThreads();
			int timelinesBefore = traced.profiler.retainedTimelines();
			long heapBefore = usedHeapAfterGc();

			LongAdder spans = new LongAdder();
			Queue<Throwable> escaped = new ConcurrentLinkedQueue<>();
			List<WeakReference<Thread>> deadThreads = new ArrayList<>();
			long heapHalfway = 0;
			long start = System.nanoTime();
			for (int wave = 0; wave < WAVES; wave++) {
				List<Thread> threads = new ArrayList<>();
				for (int t = 0; t < THREADS_PER_WAVE; t++) {
					Thread thread = new Thread(() -> requests(traced.tracer, spans, escaped), "load-" + wave + "-" + t);
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

			awaitAtMost("rings of dead threads", recorder::trackedThreads, trackedBefore);
			awaitAtMost("timelines of dead threads", traced.profiler::retainedTimelines, timelinesBefore);
			long heapAfter = usedHeapAfterGc();
			int threadsStillReachable = 0;
			for (WeakReference<Thread> thread : deadThreads) {
				threadsStillReachable += (thread.get() != null) ? 1 : 0;
			}
			SpanProfileStore store = traced.profiler.store();
			AttributionStats stats = traced.profiler.attributionStats();
			System.out.printf("load: %d spans on %d threads in %d ms (%.0f spans/s); heap used after GC: before %d KiB, "
					+ "halfway %d KiB, after %d KiB; store %d spans, ~%d KiB; tracked threads %d -> %d, timelines %d -> %d; "
					+ "dead threads still reachable %d; samples %s%n", spans.sum(), deadThreads.size(), elapsedMillis,
					spans.sum() * 1000.0 / elapsedMillis, heapBefore / 1024, heapHalfway / 1024, heapAfter / 1024,
					store.size(), store.approximateBytes() / 1024, trackedBefore, recorder.trackedThreads(),
					timelinesBefore, traced.profiler.retainedTimelines(), threadsStillReachable, stats);

			assertThat(escaped).as("exceptions that reached the application").isEmpty();
			assertThat(spans.sum()).isGreaterThanOrEqualTo(1_000_000);
			assertThat(store.size()).as("stored spans").isLessThanOrEqualTo(2 * MAX_SPANS);
			assertThat(store.approximateBytes()).isLessThanOrEqualTo(MAX_BYTES);
			assertThat(threadsStillReachable).as("dead threads still reachable").isZero();
			// Half a million spans more must not show in the heap: a leak of even 32 bytes a span would be 16 MiB.
			assertThat(heapAfter - heapHalfway).as("heap growth over the second half").isLessThan(8L * 1024 * 1024);
			assertThat(heapAfter - heapBefore).as("heap growth over the whole run").isLessThan(32L * 1024 * 1024);
			assertThat(stats.total()).as("samples taken under load").isGreaterThan(0);
		}
	}

	/** One short-lived application thread's requests. */
	private static void requests(Tracer tracer, LongAdder spans, Queue<Throwable> escaped) {
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
	}

	private static long work(int seed) {
		long x = seed;
		for (int i = 0; i < 50; i++) {
			x = x * 31 + (x >>> 3);
		}
		return x;
	}

	private static void awaitAtMost(String what, IntSupplier count, int limit) throws InterruptedException {
		long deadline = System.nanoTime() + 10_000_000_000L;
		while (count.getAsInt() > limit && System.nanoTime() < deadline) {
			Thread.sleep(50);
		}
		assertThat(count.getAsInt()).as(what).isLessThanOrEqualTo(limit);
	}

	private static long usedHeapAfterGc() throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(50);
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

}
