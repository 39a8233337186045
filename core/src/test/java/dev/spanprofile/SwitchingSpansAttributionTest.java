package dev.spanprofile;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spans that take turns on one thread every few milliseconds: only a join that honours
 * time gets each sample right. (When every span owns its thread for its whole life, a
 * join that ignored time would pass.)
 * <p>
 * The collector is slowed between draining the change points and dumping the samples, as
 * a preempted collector thread on a busy machine is: samples taken in that window must
 * still go to the span active when they were taken.
 */
class SwitchingSpansAttributionTest {

	/**
	 * CPU the two spans burn together; at least 3 s so that a 0.5 % bound means more than
	 * one sample.
	 */
	private static final long TOTAL_CPU_MILLIS = 3200;

	private static final Duration DUMP_INTERVAL = Duration.ofMillis(50);

	/** How long each collect cycle stalls between its first drain and the dump. */
	private static final long COLLECTOR_STALL_MILLIS = 15;

	/** Misattributed hot samples allowed, as a share of all hot samples. */
	private static final double MAX_WRONG_SHARE = 0.005;

	enum Sampler {

		ASYNC_CPU(EngineChoice.ASYNC_PROFILER, ProfilingEvent.CPU, SampleKind.CPU, Duration.ofMillis(5)),

		// Per-thread CPU timers: the event of the recommended production setting.
		ASYNC_CTIMER(EngineChoice.ASYNC_PROFILER, ProfilingEvent.CTIMER, SampleKind.CPU, Duration.ofMillis(5)),

		ASYNC_WALL(EngineChoice.ASYNC_PROFILER, ProfilingEvent.WALL, SampleKind.WALL, Duration.ofMillis(5)),

		// Flight Recorder's execution sampler is coarser: 10 ms is its finest useful
		// period.
		JFR_CPU(EngineChoice.JFR, ProfilingEvent.CPU, SampleKind.CPU, Duration.ofMillis(10));

		final EngineChoice engine;

		final ProfilingEvent event;

		final SampleKind kind;

		final Duration interval;

		Sampler(EngineChoice engine, ProfilingEvent event, SampleKind kind, Duration interval) {
			this.engine = engine;
			this.event = event;
			this.kind = kind;
			this.interval = interval;
		}

		/**
		 * A CPU sampler ticks with the thread's CPU clock, so the CPU time a span burned
		 * predicts its sample count. Wall-clock sampling and Flight Recorder's execution
		 * sampler (which samples threads in Java code whether or not the OS runs them)
		 * tick with elapsed time, from a sampler thread of their own that a loaded
		 * machine starves: their rate cannot be predicted, only how their samples split
		 * between the spans.
		 */
		boolean predictableRate() {
			return this == ASYNC_CPU || this == ASYNC_CTIMER;
		}

		/**
		 * Misattributed hot samples allowed. Flight Recorder stamps a sample with a
		 * wall-clock instant, which the engine maps onto the change points' clock with a
		 * pairing of the two clocks read at delivery: a sample taken within that error of
		 * a switch (here every 1-5 ms) can likely land on the other side. Seen on a
		 * 2-core machine: 2 of 304 (JDK 17, one of six fresh-clone builds) and 1 of 307
		 * (JDK 25, one of about twenty runs of this case), none in the others;
		 * async-profiler's samplers, stamped on the change points' own clock, none.
		 */
		double maxWrongShare() {
			return (this == JFR_CPU) ? 0.01 : MAX_WRONG_SHARE;
		}

	}

	@ParameterizedTest
	@EnumSource(Sampler.class)
	void oneThreadAlternatingTwoSpans(Sampler sampler) throws Exception {
		try (ProfilingHarness harness = harness(sampler)) {
			Span alpha = harness.tracer.spanBuilder("alternating-alpha").setNoParent().startSpan();
			Span beta = harness.tracer.spanBuilder("alternating-beta").setNoParent().startSpan();
			Burned alphaBurned = new Burned();
			Burned betaBurned = new Burned();
			long seed = System.nanoTime();
			Random random = new Random(seed);
			boolean alphaTurn = true;
			while (alphaBurned.cpuNanos.get() + betaBurned.cpuNanos.get() < TOTAL_CPU_MILLIS * 1_000_000) {
				Span span = alphaTurn ? alpha : beta;
				long millis = 1 + random.nextInt(5);
				try (Scope scope = span.makeCurrent()) {
					(alphaTurn ? alphaBurned : betaBurned).burn(alphaTurn ? Workloads::burnAlpha : Workloads::burnBeta,
							millis);
				}
				alphaTurn = !alphaTurn;
			}
			alpha.end();
			beta.end();
			harness.collect();
			assertOnlyOwnHotSamples(harness, sampler, "alternating (seed " + seed + ")", alpha, alphaBurned, beta,
					betaBurned);
		}
	}

	@ParameterizedTest
	@EnumSource(Sampler.class)
	void poolThreadSharedByTwoConcurrentRequests(Sampler sampler) throws Exception {
		ExecutorService pool = Executors.newSingleThreadExecutor((task) -> new Thread(task, "shared-pool-thread"));
		try (ProfilingHarness harness = harness(sampler)) {
			Burned alphaBurned = new Burned();
			Burned betaBurned = new Burned();
			CountDownLatch go = new CountDownLatch(1);
			Request alpha = new Request(harness, "request-alpha", pool, go, alphaBurned, Workloads::burnAlpha);
			Request beta = new Request(harness, "request-beta", pool, go, betaBurned, Workloads::burnBeta);
			alpha.thread.start();
			beta.thread.start();
			go.countDown();
			alpha.thread.join();
			beta.thread.join();
			assertThat(alpha.failure).as("request alpha").isNull();
			assertThat(beta.failure).as("request beta").isNull();
			harness.collect();
			assertOnlyOwnHotSamples(harness, sampler, "shared pool thread", alpha.span, alphaBurned, beta.span,
					betaBurned);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static ProfilingHarness harness(Sampler sampler) {
		return new ProfilingHarness(false, 1000, sampler.engine, Set.of(sampler.event), sampler.interval, DUMP_INTERVAL,
				(engine) -> {
					FaultInjectingEngine stalling = new FaultInjectingEngine(engine);
					stalling.delayCollects(COLLECTOR_STALL_MILLIS);
					return stalling;
				});
	}

	private static void assertOnlyOwnHotSamples(ProfilingHarness harness, Sampler sampler, String scenario, Span alpha,
			Burned alphaBurned, Span beta, Burned betaBurned) {
		SpanRecord alphaRecord = harness.record(alpha.getSpanContext().getSpanId());
		SpanRecord betaRecord = harness.record(beta.getSpanContext().getSpanId());
		Map<String, Long> inAlpha = harness.samplesContaining(alphaRecord.ownSamples(sampler.kind), "alphaHotMethod",
				"betaHotMethod");
		Map<String, Long> inBeta = harness.samplesContaining(betaRecord.ownSamples(sampler.kind), "alphaHotMethod",
				"betaHotMethod");
		long right = inAlpha.get("alphaHotMethod") + inBeta.get("betaHotMethod");
		long wrong = inAlpha.get("betaHotMethod") + inBeta.get("alphaHotMethod");
		long takenInAlpha = harness.taken(sampler.kind, "alphaHotMethod");
		long takenInBeta = harness.taken(sampler.kind, "betaHotMethod");
		double expectedTaken = (alphaBurned.cpuNanos.get() + betaBurned.cpuNanos.get())
				/ (double) sampler.interval.toNanos();
		System.out.printf(
				"switching %s %s: alpha span %s of %d taken (cpu %d ms, wall %d ms), beta span %s of %d "
						+ "taken (cpu %d ms, wall %d ms), wrong %d of %d, cpu predicts %.0f, event %s, %s%n",
				sampler, scenario, inAlpha, takenInAlpha, alphaBurned.cpuNanos.get() / 1_000_000,
				alphaBurned.wallNanos.get() / 1_000_000, inBeta, takenInBeta, betaBurned.cpuNanos.get() / 1_000_000,
				betaBurned.wallNanos.get() / 1_000_000, wrong, right + wrong, expectedTaken,
				harness.profiler.status().event(), harness.profiler.attributionStats());

		assertThat(takenInAlpha + takenInBeta).as("hot samples taken: enough for a 0.5 %% bound to mean something")
			.isGreaterThanOrEqualTo(200);
		assertThat(wrong).as("hot samples in the other span (of %d)", right + wrong)
			.isLessThanOrEqualTo((long) Math.floor(sampler.maxWrongShare() * (right + wrong)));
		// The sampler's own output is the expected count: the join must place at least 90
		// % of the samples taken in a span's hot method in that span (a join that drops
		// samples near switches fails here), and cannot place more than were taken.
		assertThat(inAlpha.get("alphaHotMethod")).as("alpha hot samples of %d taken", takenInAlpha)
			.isBetween((long) Math.ceil(0.9 * takenInAlpha), takenInAlpha);
		assertThat(inBeta.get("betaHotMethod")).as("beta hot samples of %d taken", takenInBeta)
			.isBetween((long) Math.ceil(0.9 * takenInBeta), takenInBeta);
		assertThat(harness.profiler.attributionStats().unknown()).as("samples of threads in an unknown state")
			.isLessThanOrEqualTo((long) Math.floor(MAX_WRONG_SHARE * (right + wrong)));
		if (sampler.predictableRate()) {
			// And the sampler took what the CPU time predicts: at least 90 %, and no more
			// than four standard deviations of a Poisson count above it (a periodic
			// sampler varies less). How the samples split between the two spans is not
			// checked against their CPU time: on this loaded machine perf's cpu-clock
			// splits equal CPU times between two alternating methods unevenly (seen: 276
			// vs 350), before any join.
			assertThat((double) takenInAlpha + takenInBeta).as("hot samples taken vs CPU time / interval")
				.isBetween(0.9 * expectedTaken, expectedTaken + 4 * Math.sqrt(expectedTaken));
		}
	}

	/**
	 * Time one span's hot method ran, summed over its turns, as the thread's CPU clock
	 * and the wall clock saw it.
	 */
	private static final class Burned {

		final AtomicLong cpuNanos = new AtomicLong();

		final AtomicLong wallNanos = new AtomicLong();

		void burn(LongConsumer burner, long millis) {
			long cpuStart = Workloads.cpuNanos();
			long wallStart = System.nanoTime();
			burner.accept(millis);
			this.wallNanos.addAndGet(System.nanoTime() - wallStart);
			this.cpuNanos.addAndGet(Workloads.cpuNanos() - cpuStart);
		}

	}

	/**
	 * A request on its own thread that hands pieces of ~2 ms of work to the one pool
	 * thread, waiting for each: with two such requests the pool thread switches span
	 * every piece.
	 */
	private static final class Request implements Runnable {

		final ProfilingHarness harness;

		final ExecutorService pool;

		final CountDownLatch go;

		final Burned burned;

		final LongConsumer burner;

		final Span span;

		final Thread thread;

		volatile Throwable failure;

		Request(ProfilingHarness harness, String name, ExecutorService pool, CountDownLatch go, Burned burned,
				LongConsumer burner) {
			this.harness = harness;
			this.pool = pool;
			this.go = go;
			this.burned = burned;
			this.burner = burner;
			this.span = harness.tracer.spanBuilder(name).setNoParent().startSpan();
			this.thread = new Thread(this, name);
		}

		@Override
		public void run() {
			try (Scope scope = this.span.makeCurrent()) {
				this.go.await();
				Random random = new Random();
				while (this.burned.cpuNanos.get() < TOTAL_CPU_MILLIS / 2 * 1_000_000) {
					// 1 to 3 ms: pieces of one fixed length would let a periodic sampler
					// lock onto the alternation and favour one request.
					long millis = 1 + random.nextInt(3);
					this.pool.submit(Context.current().wrap(() -> this.burned.burn(this.burner, millis))).get();
				}
			}
			catch (Throwable ex) {
				this.failure = ex;
			}
			finally {
				this.span.end();
			}
		}

	}

}
