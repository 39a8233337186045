package dev.spanprofile;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntToLongFunction;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spans on virtual threads (JDK 21+; this class runs in the JDK 25 test execution).
 * Flight Recorder reports the virtual thread itself, so each span gets its own samples;
 * async-profiler only sees carrier threads, so it must attribute nothing rather than
 * something wrong.
 * <p>
 * The order is deliberate: once async-profiler has installed its signal handler, this JVM
 * cannot record {@code jdk.CPUTimeSample} any more (the JDK refuses), and the Flight
 * Recorder test would measure the fallback event instead. Surefire gives each test class
 * a fresh JVM; within this class, Flight Recorder goes first.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VirtualThreadAttributionTest {

	private static final long MILLIS = 1500;

	@Test
	@Order(1)
	void flightRecorderAttributesVirtualThreadSpansToThemselves() throws Exception {
		try (ProfilingHarness harness = new ProfilingHarness(EngineChoice.JFR, Set.of(ProfilingEvent.CPU))) {
			long alphaCalls = Workloads.callsFor(MILLIS, Workloads::alphaHotMethod);
			long betaCalls = Workloads.callsFor(MILLIS, Workloads::betaHotMethod);
			// The calibration ran the same methods outside any span: count what the
			// sampler takes from here on.
			harness.collect();
			long[] takenBefore = { harness.taken(SampleKind.CPU, "alphaHotMethod"),
					harness.taken(SampleKind.CPU, "betaHotMethod") };
			String[] ids = runTwoVirtualSpans(harness, alphaCalls, betaCalls);
			harness.collect();
			long expected = MILLIS / ProfilingHarness.INTERVAL.toMillis();
			for (int i = 0; i < 2; i++) {
				String own = (i == 0) ? "alphaHotMethod" : "betaHotMethod";
				String other = (i == 0) ? "betaHotMethod" : "alphaHotMethod";
				SpanRecord record = harness.record(ids[i]);
				Map<String, Long> counts = harness.samplesContaining(record.ownSamples(SampleKind.CPU), own, other);
				long samples = record.ownSampleCount(SampleKind.CPU);
				long taken = harness.taken(SampleKind.CPU, own) - takenBefore[i];
				String event = harness.profiler.status().event();
				System.out.printf("virtual %s (%s): samples=%d own=%d of %d taken, other=%d %s%n", own, event, samples,
						counts.get(own), taken, counts.get(other), harness.profiler.attributionStats());
				// The join: at least 90 % of the samples taken in the span's method,
				// never more, none of the other's.
				assertThat(counts.get(own)).as("own samples of %d taken", taken)
					.isBetween((long) Math.ceil(0.9 * taken), taken);
				assertThat(counts.get(other)).isZero();
				// The sampler: each span did ~1.5 s of CPU work (calibrated on a platform
				// thread), however long it took. jdk.CPUTimeSample ticks with CPU time,
				// so its count is predicted within Poisson bounds; jdk.ExecutionSample
				// (when a native profiler's signal handler is installed) samples a few
				// threads in Java code per period, so only a floor can be asked of it.
				if (event.contains("CPUTimeSample")) {
					ProfilingHarness.assertAboutExpected(own + " samples taken", taken, expected);
				}
				else {
					assertThat(taken).isGreaterThanOrEqualTo(expected / 2);
				}
			}
		}
	}

	@Test
	@Order(2)
	void asyncProfilerGivesVirtualThreadSpansNothingRatherThanSomethingWrong() throws Exception {
		try (ProfilingHarness harness = new ProfilingHarness(EngineChoice.ASYNC_PROFILER, Set.of(ProfilingEvent.CPU))) {
			String[] ids = runTwoVirtualSpans(harness, Workloads.callsFor(MILLIS, Workloads::alphaHotMethod),
					Workloads.callsFor(MILLIS, Workloads::betaHotMethod));
			harness.collect();
			long attributed = harness.record(ids[0]).ownSampleCount(SampleKind.CPU)
					+ harness.record(ids[1]).ownSampleCount(SampleKind.CPU);
			System.out.printf("virtual with async-profiler: %d samples attributed, %s%n", attributed,
					harness.profiler.attributionStats());
			assertThat(attributed).isZero();
			// The profiler did sample: the samples just could not be placed in any span.
			assertThat(harness.profiler.attributionStats().outsideSpans()).isGreaterThan(20);
		}
	}

	private static String[] runTwoVirtualSpans(ProfilingHarness harness, long alphaCalls, long betaCalls)
			throws Exception {
		String[] ids = new String[2];
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
		try {
			Future<?> alpha = virtualThreads
				.submit(() -> runSpan(harness, "virtual-alpha", Workloads::alphaHotMethod, alphaCalls, go, ids, 0));
			Future<?> beta = virtualThreads
				.submit(() -> runSpan(harness, "virtual-beta", Workloads::betaHotMethod, betaCalls, go, ids, 1));
			go.countDown();
			alpha.get();
			beta.get();
		}
		finally {
			virtualThreads.shutdown();
		}
		return ids;
	}

	private static Void runSpan(ProfilingHarness harness, String name, IntToLongFunction hot, long calls,
			CountDownLatch go, String[] ids, int index) throws InterruptedException {
		go.await();
		assertThat(Thread.currentThread().toString()).contains("VirtualThread");
		Span span = harness.tracer.spanBuilder(name).startSpan();
		ids[index] = span.getSpanContext().getSpanId();
		try (Scope scope = span.makeCurrent()) {
			Workloads.burnCalls(calls, hot);
		}
		finally {
			span.end();
		}
		return null;
	}

	/** Java 17 bytecode: reach the JDK 21 factory reflectively. */
	private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
		return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
	}

}
