package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.lifecycle.Collector;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The collector's dump-and-parse cycle fails for a while, first with an exception, then
 * with an error (what a parser fed garbage throws: {@code OutOfMemoryError} for an absurd
 * array length). The application's work goes on, the failure is logged once, the
 * collector survives, and the first good cycle attributes samples again, without handing
 * the late samples of the failed cycles to the wrong span.
 */
class CollectorFaultToleranceTest {

	/**
	 * Generous: the conditions come true within a second or so, but CI machines are busy.
	 */
	private static final Duration PATIENCE = Duration.ofSeconds(30);

	@TempDir
	Path workDirectory;

	@Test
	void failingCyclesAreLoggedOnceTheCollectorSurvivesAndLateSamplesAreNeverMisattributed() throws Exception {
		ExecutorService application = Executors.newSingleThreadExecutor((task) -> new Thread(task, "application"));
		FaultInjectingEngine[] engine = new FaultInjectingEngine[1];
		try (WarningLog log = WarningLog.of(Collector.class);
				TracedProfiler traced = new TracedProfiler(new StoreSettings(1000, 64L * 1024 * 1024, false),
						this.workDirectory, (real) -> engine[0] = new FaultInjectingEngine(real))) {
			FaultInjectingEngine faults = engine[0];
			faults.failWith(() -> new IllegalStateException("injected: dump failed"));

			// Span A runs and ends during the fault; span B follows on the same thread
			// and is still running when the fault clears, long after the change points of
			// A have been forgotten.
			CountDownLatch bStarted = new CountDownLatch(1);
			AtomicBoolean stopB = new AtomicBoolean();
			AtomicInteger bRounds = new AtomicInteger();
			String[] ids = new String[3];
			Future<?> aThenB = application.submit(() -> {
				ids[0] = traced.inRootSpan("a", () -> Workloads.burnAlpha(300));
				faults.failWith(() -> new OutOfMemoryError("injected: Requested array size exceeds VM limit"));
				ids[1] = traced.inRootSpan("b", () -> {
					bStarted.countDown();
					while (!stopB.get()) {
						Workloads.burnBeta(20);
						bRounds.incrementAndGet();
					}
				});
			});
			assertThat(bStarted.await(30, TimeUnit.SECONDS)).isTrue();
			long completeDuringFault = traced.profiler.completeUpToEpochNanos();
			int failedBefore = faults.failedByCollector();
			await("three more failed collect cycles").atMost(PATIENCE)
				.until(() -> faults.failedByCollector() >= failedBefore + 3);
			int failed = faults.failedByCollector();
			// No span may be reported complete while its samples have not been collected.
			assertThat(traced.profiler.completeUpToEpochNanos()).isEqualTo(completeDuringFault);
			faults.heal();
			await("a good cycle by the collector after " + failed + " failed ones").atMost(PATIENCE)
				.until(() -> faults.succeededByCollector() > 0);
			// B burns on for 300 ms of CPU after the fault cleared: about 30 samples that
			// must be its own.
			int bRoundsAtHeal = bRounds.get();
			await("b burning 300 ms of CPU after the fault").atMost(PATIENCE)
				.until(() -> bRounds.get() >= bRoundsAtHeal + 15);
			stopB.set(true);
			aThenB.get(30, TimeUnit.SECONDS);
			ids[2] = application.submit(() -> traced.inRootSpan("c", () -> Workloads.burnGamma(300)))
				.get(30, TimeUnit.SECONDS);
			traced.profiler.collectNow();

			AttributionStats stats = traced.profiler.attributionStats();
			System.out.printf(
					"collector faults: %d failed cycles, warnings %s; a: alpha=%d beta=%d; "
							+ "b: alpha=%d beta=%d; c: gamma=%d alpha=%d beta=%d; %s%n",
					failed, log.warnings(), traced.samplesIn(ids[0], "alphaHotMethod"),
					traced.samplesIn(ids[0], "betaHotMethod"), traced.samplesIn(ids[1], "alphaHotMethod"),
					traced.samplesIn(ids[1], "betaHotMethod"), traced.samplesIn(ids[2], "gammaHotMethod"),
					traced.samplesIn(ids[2], "alphaHotMethod"), traced.samplesIn(ids[2], "betaHotMethod"), stats);
			assertThat(failed).as("collect cycles that failed").isGreaterThanOrEqualTo(3);
			assertThat(log.warnings()).as("warnings").hasSize(1);
			assertThat(log.warnings().get(0)).contains("injected: dump failed");
			// A's samples arrived after the change points that placed them were
			// forgotten: dropped, not given to B.
			assertThat(traced.samplesIn(ids[1], "alphaHotMethod")).as("b's samples in a's method").isZero();
			assertThat(traced.samplesIn(ids[0], "betaHotMethod")).as("a's samples in b's method").isZero();
			assertThat(traced.samplesIn(ids[1], "betaHotMethod")).as("b's own samples").isGreaterThan(10);
			assertThat(traced.samplesIn(ids[2], "gammaHotMethod")).as("c's own samples").isGreaterThan(15);
			assertThat(traced.samplesIn(ids[2], "alphaHotMethod") + traced.samplesIn(ids[2], "betaHotMethod"))
				.as("c's samples of earlier spans")
				.isZero();
			assertThat(stats.unknown()).as("late samples dropped as unknown").isGreaterThan(0);
		}
		finally {
			application.shutdownNow();
		}
	}

	@Test
	void stoppingDuringACollectionLetsItFinishInsteadOfInterruptingIt() throws Exception {
		ExecutorService application = Executors.newSingleThreadExecutor((task) -> new Thread(task, "application"));
		FaultInjectingEngine[] engine = new FaultInjectingEngine[1];
		try (WarningLog log = WarningLog.of(Collector.class);
				TracedProfiler traced = new TracedProfiler(new StoreSettings(1000, 64L * 1024 * 1024, false),
						this.workDirectory, (real) -> engine[0] = new FaultInjectingEngine(real))) {
			String span = application.submit(() -> traced.inRootSpan("last", () -> Workloads.burnAlpha(300)))
				.get(30, TimeUnit.SECONDS);
			engine[0].delayCollects(400);
			assertThat(engine[0].awaitDelayedCollect()).isTrue();
			// Stopping while the collector is inside a cycle, as an application shutting
			// down at any moment does.
			traced.profiler.stop();

			System.out.printf("stopped mid-cycle: warnings %s, last span alpha=%d%n", log.warnings(),
					traced.samplesIn(span, "alphaHotMethod"));
			assertThat(log.warnings()).as("warnings from stopping").isEmpty();
			assertThat(traced.samplesIn(span, "alphaHotMethod")).as("the last span's samples").isGreaterThan(15);
		}
		finally {
			application.shutdownNow();
		}
	}

}
