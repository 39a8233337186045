package dev.spanprofile;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.spanprofile.aggregate.NameProfile;
import dev.spanprofile.attribution.AttributionCounters;
import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.InclusiveSamples;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A busy application: more requests end within one collection cycle than the store keeps,
 * so most are dropped before the cycle that joins their samples. Their samples must still
 * reach the name's aggregate and every listener of completed requests (slow-span log,
 * OTLP export), not vanish as "outside spans".
 */
class EvictedBeforeJoinTest {

	private static final Duration HOUR = Duration.ofHours(1);

	private static final int MAX_SPANS = 5;

	/**
	 * Per cycle: more than the store keeps (of its five spans at most two hold the
	 * slowest requests, so three hold recent ones), few enough that the four or so
	 * dropped ones fit among the five that may await their samples.
	 */
	private static final int REQUESTS_PER_CYCLE = 7;

	private static final int CYCLES = 12;

	private static final long CPU_MILLIS_PER_REQUEST = 15;

	@Test
	void requestsDroppedBeforeTheirSamplesAreJoinedKeepThemInAggregatesAndListeners() {
		// A dump interval far longer than the test: cycles run only when the test
		// collects, so every cycle sees
		// REQUESTS_PER_CYCLE requests end before it joins their samples.
		try (ProfilingHarness harness = new ProfilingHarness(true, MAX_SPANS, EngineChoice.ASYNC_PROFILER,
				Set.of(ProfilingEvent.CPU), ProfilingHarness.INTERVAL, Duration.ofSeconds(30), Function.identity())) {
			AtomicLong handedOff = new AtomicLong();
			AtomicLong handedOffSamples = new AtomicLong();
			harness.profiler.onProfileComplete((root) -> {
				handedOff.incrementAndGet();
				handedOffSamples
					.addAndGet(harness.samplesContaining(InclusiveSamples.of(root, SampleKind.CPU), "alphaHotMethod")
						.get("alphaHotMethod"));
			});
			long cpuNanos = 0;
			for (int cycle = 0; cycle < CYCLES; cycle++) {
				for (int i = 0; i < REQUESTS_PER_CYCLE; i++) {
					cpuNanos += request(harness, "GET /busy");
				}
				harness.collect();
			}
			long requests = (long) CYCLES * REQUESTS_PER_CYCLE;
			assertThat(harness.profiler.store().evictedSpans()).as("requests dropped before their cycle")
				.isGreaterThanOrEqualTo(requests - MAX_SPANS);

			NameProfile profile = harness.profiler.aggregates()
				.profile("GET /busy", HOUR, SampleKind.CPU, 0, Long.MAX_VALUE);
			long folded = harness.samplesContaining(profile.samples(), "alphaHotMethod").get("alphaHotMethod");
			long taken = harness.taken(SampleKind.CPU, "alphaHotMethod");
			double expected = cpuNanos / (double) ProfilingHarness.INTERVAL.toNanos();
			System.out.printf("evicted before join: requests=%d evicted spans=%d taken=%d folded=%d handed off=%d "
					+ "(samples %d) expected=%.1f event=%s; dropped incomplete=%d; cpu samples outside spans=%d "
					+ "unknown=%d%n", requests, harness.profiler.store().evictedSpans(), taken, folded, handedOff.get(),
					handedOffSamples.get(), expected, harness.profiler.status().event(),
					harness.profiler.store().droppedIncomplete(),
					harness.profiler.attributionCounters().samples(SampleKind.CPU, AttributionCounters.Result.OUTSIDE),
					harness.profiler.attributionCounters().samples(SampleKind.CPU, AttributionCounters.Result.UNKNOWN));

			assertThat(harness.profiler.store().droppedIncomplete()).as("requests that could not await their samples")
				.isZero();
			assertThat(harness.profiler.store().awaitingSamples()).as("still awaiting after the last cycle").isZero();
			assertThat(profile.spans()).as("each request folded once").isEqualTo(requests);
			assertThat(handedOff.get()).as("each request handed to listeners once").isEqualTo(requests);
			// The sampler took about what the CPU time predicts; the name got what it
			// took (only these requests run alphaHotMethod), less at most what a join
			// near a switch may miss, never more.
			ProfilingHarness.assertAboutExpected("alphaHotMethod samples taken", taken, expected);
			ProfilingHarness.assertAboutExpected("alphaHotMethod samples in the name's aggregate", folded, expected);
			assertThat(folded).as("samples folded into the name vs taken")
				.isBetween((long) Math.ceil(0.9 * taken), taken);
			assertThat(handedOffSamples.get()).as("samples the listeners saw vs taken")
				.isBetween((long) Math.ceil(0.9 * taken), taken);
		}
	}

	/**
	 * One request: a local root burning CPU in a method only it runs; returns the CPU
	 * time it used.
	 */
	private static long request(ProfilingHarness harness, String name) {
		Span span = harness.tracer.spanBuilder(name).setNoParent().startSpan();
		long start = Workloads.cpuNanos();
		try (Scope scope = span.makeCurrent()) {
			Workloads.burnAlpha(CPU_MILLIS_PER_REQUEST);
		}
		finally {
			span.end();
		}
		return Workloads.cpuNanos() - start;
	}

}
