package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.slowlog.LoggedLines;
import dev.spanprofile.slowlog.SlowSpanLogSettings;
import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.view.ProfileQuery;
import dev.spanprofile.view.SpanListQuery;
import dev.spanprofile.view.SpanProfileViews;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Collections before the dump interval is up: when someone reads profiles, when the room
 * for dropped requests awaiting their samples runs short, and a second after a request
 * slow enough for the slow-request log. The dump interval here is far longer than each
 * test, so that every collection seen is an early one.
 */
class EarlyCollectionTest {

	private static final Duration LONG_DUMP_INTERVAL = Duration.ofSeconds(60);

	@TempDir
	Path workDirectory;

	@Test
	void aViewShowsARequestThatJustEndedWithItsWholeProfile() {
		try (TracedProfiler traced = new TracedProfiler(StoreSettings.defaults(), LONG_DUMP_INTERVAL,
				this.workDirectory)) {
			SpanProfileViews views = new SpanProfileViews(traced.profiler, new FrameClassifier(List.of()));
			String spanId = traced.inRootSpan("just ended", () -> Workloads.burnAlpha(300));
			long collectionsBefore = traced.profiler.collectionCycles().count();
			assertThat(traced.profiler.completeUpToEpochNanos()).as("complete before the view")
				.isLessThan(traced.record(spanId).endEpochNanos());

			views.profile(ProfileQuery.parse(spanId, null, traced.sampler));

			long collections = traced.profiler.collectionCycles().count() - collectionsBefore;
			long samples = traced.samplesIn(spanId, "alphaHotMethod");
			System.out.printf("a view right after the request: %d collection(s), %d samples of 300 ms at 10 ms%n",
					collections, samples);
			assertThat(collections).isEqualTo(1);
			assertThat(traced.profiler.completeUpToEpochNanos()).as("complete after the view")
				.isGreaterThanOrEqualTo(traced.record(spanId).endEpochNanos());
			assertThat(samples).isBetween(15L, 45L);
		}
	}

	@Test
	void readersInABurstShareCollections() throws InterruptedException {
		try (TracedProfiler traced = new TracedProfiler(StoreSettings.defaults(), LONG_DUMP_INTERVAL,
				this.workDirectory)) {
			SpanProfileViews views = new SpanProfileViews(traced.profiler, new FrameClassifier(List.of()));
			traced.inRootSpan("listed", () -> Workloads.burnAlpha(20));
			// Past the moment the profiler started, which counts as a collection.
			Thread.sleep(250);
			long collectionsBefore = traced.profiler.collectionCycles().count();
			long start = System.nanoTime();
			for (int i = 0; i < 20; i++) {
				views.spans(SpanListQuery.parse(null, null, null));
				Thread.sleep(25);
			}
			long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			long collections = traced.profiler.collectionCycles().count() - collectionsBefore;
			System.out.printf("20 list views in %d ms: %d collection(s)%n", elapsedMillis, collections);
			// One for the first reader and one for the first reader 200 ms later at
			// least; at most one per 200 ms however many read.
			assertThat(collections).isBetween(2L, 1 + elapsedMillis / 200);
		}
	}

	@Test
	void requestsEndingFasterThanTheRoomToAwaitSamplesAreCollectedEarlyInsteadOfLosingSamples() throws Exception {
		int maxSpans = 40;
		try (TracedProfiler traced = new TracedProfiler(
				new StoreSettings(maxSpans, 64L * 1024 * 1024, true, RetentionSettings.defaults(), maxSpans),
				LONG_DUMP_INTERVAL, this.workDirectory)) {
			long collectionsBefore = traced.profiler.collectionCycles().count();
			long start = System.nanoTime();
			int requests = 300;
			for (int i = 0; i < requests; i++) {
				traced.inRootSpan("request " + (i % 3), () -> Workloads.burnAlpha(1));
				// About 90 requests a second through a store of 40: after a collection
				// the 40 complete ones are dropped first, then the room of 40 to await
				// fills within the next half second. The next collection comes when what
				// is left of it would fill within 200 ms and a collection's own time.
				Thread.sleep(10);
			}
			long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			long collections = traced.profiler.collectionCycles().count() - collectionsBefore;
			long incomplete = traced.profiler.store().droppedIncomplete();
			double longestMillis = traced.profiler.collectionCycles().maxNanos() / 1e6;
			System.out.printf(
					"%d requests in %d ms, room for %d awaiting: %d collection(s), the longest %.0f ms, %d dropped incomplete%n",
					requests, elapsedMillis, maxSpans, collections, longestMillis, incomplete);
			// Without early collections the room fills within the first 80 requests and
			// every later drop is incomplete (about 220). A collection starts when the
			// room would fill within its margin (200 ms) and the last collection's time;
			// one far slower than the last (a machine that stalls the collector) lets the
			// requests ending meanwhile overflow the room, at most as many as end while
			// it runs.
			double perMilli = (double) requests / elapsedMillis;
			if (longestMillis <= 100) {
				assertThat(incomplete).isZero();
			}
			else {
				assertThat(incomplete).as("dropped incomplete with a collection of %.0f ms", longestMillis)
					.isLessThanOrEqualTo((long) Math.ceil(perMilli * longestMillis));
			}
			// A collection completes the stored requests too, so up to twice the room's
			// drops pass between two; and they come at most every 200 ms.
			assertThat(collections).isBetween((long) (requests - maxSpans) / (2 * maxSpans), 1 + elapsedMillis / 200);
		}
	}

	@Test
	void aCollectionThatJoinedNothingIsNotBroughtForwardAgain() throws Exception {
		FaultInjectingEngine[] engine = new FaultInjectingEngine[1];
		try (TracedProfiler traced = new TracedProfiler(
				new StoreSettings(40, 64L * 1024 * 1024, true, RetentionSettings.defaults(), 40),
				SlowSpanLogSettings.off(), LONG_DUMP_INTERVAL, this.workDirectory,
				(real) -> engine[0] = new FaultInjectingEngine(real))) {
			engine[0].failWith(() -> new IllegalStateException("injected: dump failed"));
			for (int i = 0; i < 300; i++) {
				traced.inRootSpan("request", () -> Workloads.burnAlpha(1));
				Thread.sleep(5);
			}
			int failed = engine[0].failedByCollector();
			System.out.printf("300 requests, every dump failing: %d collection(s) brought forward%n", failed);
			// The first, then none until the dump interval: a broken engine is not dumped
			// five times a second.
			assertThat(failed).isEqualTo(1);
		}
	}

	@Test
	void aSlowRequestIsLoggedAboutASecondAfterItEndsAndAFastOneBringsNothingForward() throws Exception {
		SlowSpanLogSettings slowLog = new SlowSpanLogSettings(Duration.ofMillis(200), 10, "/actuator/spanprofile");
		try (LoggedLines log = new LoggedLines();
				TracedProfiler traced = new TracedProfiler(StoreSettings.defaults(), slowLog, LONG_DUMP_INTERVAL,
						this.workDirectory, Function.identity())) {
			// Past the moment the profiler started, which counts as a collection.
			Thread.sleep(250);
			long collectionsBefore = traced.profiler.collectionCycles().count();
			traced.inRootSpan("GET /fast", () -> Workloads.burnBeta(20));
			Thread.sleep(1500);
			assertThat(traced.profiler.collectionCycles().count()).as("collections after a fast request")
				.isEqualTo(collectionsBefore);

			String slow = traced.inRootSpan("GET /slow", () -> Workloads.burnAlpha(300));
			long ended = System.nanoTime();
			long deadline = ended + TimeUnit.SECONDS.toNanos(15);
			while (log.lines().isEmpty() && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			long afterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - ended);
			// The cycle that logs the line counts itself only as it finishes.
			long counted = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
			while (traced.profiler.collectionCycles().count() == collectionsBefore && System.nanoTime() < counted) {
				Thread.sleep(5);
			}
			long collections = traced.profiler.collectionCycles().count() - collectionsBefore;
			System.out.printf("slow request logged %d ms after its end, %d collection(s)%n", afterMillis, collections);
			assertThat(log.lines()).as("lines within 15 s of a dump interval of 60 s").hasSize(1);
			// Not before a second (the waits' stream is that far behind), and far sooner
			// than the dump interval: the collector looks every 50 ms, a loaded machine
			// delays it.
			assertThat(afterMillis).isBetween(950L, 5000L);
			assertThat(log.lines().get(0)).contains(slow).contains("Workloads.alphaHotMethod");
			assertThat(collections).isBetween(1L, 3L);
		}
	}

}
