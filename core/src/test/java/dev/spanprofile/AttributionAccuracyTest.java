package dev.spanprofile;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real samples from a real profiler: concurrent spans with different hot methods must
 * each get their own samples, in proportion to the CPU they used.
 */
class AttributionAccuracyTest {

	private static final long CPU_MILLIS = 1500;

	@ParameterizedTest
	@CsvSource({ "ASYNC_PROFILER, CPU", "ASYNC_PROFILER, CTIMER", "JFR, CPU" })
	void concurrentSpansGetOnlyTheirOwnSamples(EngineChoice engine, ProfilingEvent event) throws Exception {
		try (ProfilingHarness harness = new ProfilingHarness(engine, Set.of(event))) {
			SpanRun alpha = new SpanRun(harness, "alpha", Workloads::burnAlpha);
			SpanRun beta = new SpanRun(harness, "beta", Workloads::burnBeta);
			CountDownLatch go = new CountDownLatch(1);
			Thread a = alpha.startOn(go);
			Thread b = beta.startOn(go);
			go.countDown();
			a.join();
			b.join();
			harness.collect();

			for (SpanRun run : new SpanRun[] { alpha, beta }) {
				SpanRecord record = harness.record(run.spanId.get());
				String own = run == alpha ? "alphaHotMethod" : "betaHotMethod";
				String other = run == alpha ? "betaHotMethod" : "alphaHotMethod";
				Map<String, Long> counts = harness.samplesContaining(record.ownSamples(SampleKind.CPU), own, other);
				long samples = record.ownSampleCount(SampleKind.CPU);
				double expected = run.cpuNanos.get() / (double) ProfilingHarness.INTERVAL.toNanos();
				System.out.printf("accuracy %s %s: samples=%d expected=%.1f (cpu %d ms) own=%d other=%d event=%s%n",
						engine.id(), run.name, samples, expected, run.cpuNanos.get() / 1_000_000, counts.get(own),
						counts.get(other), harness.profiler.status().event());
				assertThat(counts.get(other)).as("%s samples with %s", run.name, other).isZero();
				assertThat(counts.get(own)).as("%s samples with %s", run.name, own)
					.isGreaterThanOrEqualTo((long) Math.ceil(samples * 0.95));
				// The join gives the span what the sampler took in its method: nothing
				// lost, nothing added.
				long taken = harness.taken(SampleKind.CPU, own);
				assertThat(counts.get(own)).as("%s samples joined vs taken %d", run.name, taken)
					.isBetween((long) Math.floor(taken * 0.9), taken);
				assertSamplerRate(harness, samples, expected, run.wallNanos.get(), run.name);
				// Its CPU time read from the thread's clock where it entered and left the
				// span: the burn's own reading, plus the few instructions between those
				// points and the burn's.
				assertThat(record.measuredCpu().nanosIfComplete())
					.as("%s measured CPU vs %d ns burnt", run.name, run.cpuNanos.get())
					.isBetween(run.cpuNanos.get(), run.cpuNanos.get() + 20_000_000);
			}
		}
	}

	@ParameterizedTest
	@EnumSource(value = EngineChoice.class, names = { "ASYNC_PROFILER", "JFR" })
	void workHandedToAPoolThreadBelongsToTheSpanThatHandedItOver(EngineChoice engine) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(2);
		try (ProfilingHarness harness = new ProfilingHarness(engine, Set.of(ProfilingEvent.CPU))) {
			Span span = harness.tracer.spanBuilder("checkout").startSpan();
			AtomicLong workerCpu = new AtomicLong();
			AtomicLong workerWall = new AtomicLong();
			try (Scope scope = span.makeCurrent()) {
				// Context.current().wrap is what every context-propagating executor does.
				Future<?> done = pool.submit(Context.current().wrap(() -> {
					long start = Workloads.cpuNanos();
					long wallStart = System.nanoTime();
					Workloads.burnGamma(CPU_MILLIS);
					workerCpu.set(Workloads.cpuNanos() - start);
					workerWall.set(System.nanoTime() - wallStart);
				}));
				done.get();
			}
			finally {
				span.end();
			}
			// The pool thread then runs unrelated work that must not land in the span.
			pool.submit(() -> Workloads.burnBeta(500)).get();
			harness.collect();

			SpanRecord record = harness.record(span.getSpanContext().getSpanId());
			Map<String, Long> counts = harness.samplesContaining(record.ownSamples(SampleKind.CPU), "gammaHotMethod",
					"betaHotMethod");
			double expected = workerCpu.get() / (double) ProfilingHarness.INTERVAL.toNanos();
			System.out.printf("hand-off %s: gamma=%d beta=%d expected=%.1f%n", engine.id(),
					counts.get("gammaHotMethod"), counts.get("betaHotMethod"), expected);
			long taken = harness.taken(SampleKind.CPU, "gammaHotMethod");
			assertThat(counts.get("gammaHotMethod")).as("hand-off samples joined vs taken %d", taken)
				.isBetween((long) Math.floor(taken * 0.9), taken);
			assertSamplerRate(harness, counts.get("gammaHotMethod"), expected, workerWall.get(), "hand-off");
			assertThat(counts.get("betaHotMethod")).isZero();
			// Both threads' clocks: the pool thread's burn, and the handing thread's few
			// milliseconds around it (the pool thread's later work is outside the span,
			// and not counted).
			assertThat(record.measuredCpu().nanosIfComplete())
				.as("hand-off measured CPU vs %d ns burnt", workerCpu.get())
				.isBetween(workerCpu.get(), workerCpu.get() + 50_000_000);
		}
		finally {
			pool.shutdownNow();
		}
	}

	/**
	 * CPU-time events (perf {@code cpu}, {@code jdk.CPUTimeSample}) fire in proportion to
	 * CPU time: 0.7 to 1.3 times CPU time / interval. JFR's {@code jdk.ExecutionSample}
	 * is not tied to CPU time: it takes every thread that is in Java code at each period
	 * of its own sampler thread, so on a loaded machine a preempted thread is counted (up
	 * to its elapsed time) while the sampler thread, waiting for a CPU itself, skips
	 * periods. For it the join is checked against what was taken (above), and the rate
	 * only for being of the right order.
	 */
	private static void assertSamplerRate(ProfilingHarness harness, long samples, double cpuExpected, long wallNanos,
			String what) {
		double wallExpected = wallNanos / (double) ProfilingHarness.INTERVAL.toNanos();
		if (harness.profiler.status().event().contains("ExecutionSample")) {
			assertThat((double) samples).as("%s jdk.ExecutionSample count vs CPU and elapsed time / interval", what)
				.isBetween(cpuExpected * 0.5, Math.max(cpuExpected, wallExpected) * 1.3);
		}
		else {
			assertThat((double) samples).as("%s sample count vs CPU time / interval", what)
				.isBetween(cpuExpected * 0.7, cpuExpected * 1.3);
		}
	}

	/** One span on its own thread burning CPU in one method. */
	private static final class SpanRun {

		final ProfilingHarness harness;

		final String name;

		final LongConsumer burn;

		final AtomicReference<String> spanId = new AtomicReference<>();

		final AtomicLong cpuNanos = new AtomicLong();

		final AtomicLong wallNanos = new AtomicLong();

		SpanRun(ProfilingHarness harness, String name, LongConsumer burn) {
			this.harness = harness;
			this.name = name;
			this.burn = burn;
		}

		Thread startOn(CountDownLatch go) {
			Thread thread = new Thread(() -> {
				try {
					go.await();
				}
				catch (InterruptedException ex) {
					return;
				}
				Span span = this.harness.tracer.spanBuilder(this.name).startSpan();
				this.spanId.set(span.getSpanContext().getSpanId());
				try (Scope scope = span.makeCurrent()) {
					long start = Workloads.cpuNanos();
					long wallStart = System.nanoTime();
					this.burn.accept(CPU_MILLIS);
					this.cpuNanos.set(Workloads.cpuNanos() - start);
					this.wallNanos.set(System.nanoTime() - wallStart);
				}
				finally {
					span.end();
				}
			}, "worker-" + this.name);
			thread.start();
			return thread;
		}

	}

}
