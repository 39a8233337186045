package dev.spanprofile;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A span that computes, then waits on a lock another thread holds: its CPU flame graph
 * shows the computation only, its wall-clock flame graph shows the wait as well.
 */
class WallClockAttributionTest {

	private static final long CPU_MILLIS = 300;

	/** How long the lock stays held once the span is about to wait for it. */
	private static final long LOCK_HELD_MILLIS = 300;

	private final Object lock = new Object();

	@ParameterizedTest
	@EnumSource(value = EngineChoice.class, names = { "ASYNC_PROFILER", "JFR" })
	void waitingShowsInWallClockButNotInCpu(EngineChoice engine) throws Exception {
		try (ProfilingHarness harness = new ProfilingHarness(engine, Set.of(ProfilingEvent.CPU, ProfilingEvent.WALL))) {
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch aboutToWait = new CountDownLatch(1);
			Thread holder = new Thread(() -> holdLock(held, aboutToWait), "lock-holder");
			holder.start();
			held.await();
			Span span = harness.tracer.spanBuilder("waits-for-lock").startSpan();
			long waitedNanos;
			try (Scope scope = span.makeCurrent()) {
				Workloads.burnAlpha(CPU_MILLIS);
				long start = System.nanoTime();
				aboutToWait.countDown();
				waitForLock();
				waitedNanos = System.nanoTime() - start;
			}
			finally {
				span.end();
			}
			holder.join();
			harness.collect();

			SpanRecord record = harness.record(span.getSpanContext().getSpanId());
			Map<String, Long> cpu = harness.samplesContaining(record.ownSamples(SampleKind.CPU), "alphaHotMethod",
					"waitForLock");
			Map<String, Long> wall = harness.samplesContaining(record.ownSamples(SampleKind.WALL), "alphaHotMethod",
					"waitForLock");
			double expectedWait = waitedNanos / (double) ProfilingHarness.INTERVAL.toNanos();
			System.out.printf("wall %s: waited %d ms (expected ~%.0f wall samples); cpu %s; wall %s%n", engine.id(),
					waitedNanos / 1_000_000, expectedWait, cpu, wall);

			assertThat(cpu.get("alphaHotMethod")).as("cpu samples in the computation")
				.isGreaterThan(CPU_MILLIS / 10 / 2);
			assertThat(cpu.get("waitForLock")).as("cpu samples while blocked").isLessThanOrEqualTo(2);
			assertThat((double) wall.get("waitForLock")).as("wall samples while blocked")
				.isBetween(expectedWait * 0.5, expectedWait * 1.3);
			assertThat(wall.get("alphaHotMethod")).as("wall samples in the computation").isGreaterThan(0);
			// The join, both ways: each method runs only in this span, so it gets 90-100
			// % of what was taken there. (The sampler's own rate keeps its wide bound
			// above: a wall sampler thread starved on a loaded machine takes fewer
			// samples, whatever the join does.)
			harness.assertGotWhatWasTaken(record, SampleKind.WALL, "waitForLock");
			harness.assertGotWhatWasTaken(record, SampleKind.WALL, "alphaHotMethod");
			harness.assertGotWhatWasTaken(record, SampleKind.CPU, "alphaHotMethod");
			assertThat(record.ownSampleCount(SampleKind.WALL)).isGreaterThan(record.ownSampleCount(SampleKind.CPU));
		}
	}

	private void holdLock(CountDownLatch held, CountDownLatch aboutToWait) {
		synchronized (this.lock) {
			held.countDown();
			try {
				// However long the computation takes on a busy machine, the span then
				// waits about this long.
				aboutToWait.await();
				Thread.sleep(LOCK_HELD_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void waitForLock() {
		synchronized (this.lock) {
			Workloads.sink++;
		}
	}

}
