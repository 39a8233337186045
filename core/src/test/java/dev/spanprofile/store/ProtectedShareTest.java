package dev.spanprofile.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.profile.SampleKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protected requests (slowest per name, latest failed) hold at most half of the store's
 * memory at every moment, so that recent requests always have the other half. In
 * production the collector joins a request's samples after it ended (a dump interval
 * later, all of them for a request shorter than the interval): the share must count those
 * samples as they arrive, not what the request held when it was judged.
 */
class ProtectedShareTest {

	private static final long MS = 1_000_000L;

	private static final long BUDGET = 1024 * 1024;

	private final AtomicLong clock = new AtomicLong(1_000_000 * MS);

	private int sequence;

	@Test
	void samplesJoinedAfterARequestEndedCountAgainstTheProtectedHalf() {
		SpanProfileStore store = store();
		// Five slow requests end; as in production, the collector joins their samples
		// after.
		List<SpanRecord> slow = new ArrayList<>();
		for (int r = 0; r < 5; r++) {
			String id = "slow" + r;
			long end = this.clock.addAndGet(MS);
			SpanRecord record = store.spanStarted(id, id, null, false, "GET /report", "SERVER", end - 2_000 * MS,
					"main");
			store.spanEnded(id, "GET /report", "OK", end, false);
			slow.add(record);
		}
		assertThat(store.protectedCount()).isEqualTo(5);
		for (SpanRecord record : slow) {
			for (int i = 0; i < 1_700; i++) {
				store.addSample(record, SampleKind.CPU, new int[] { 1, 2, 3, 4, 5, 6, 7, 8, 100_000 + i }, 1);
				assertThat(protectedBytes(store)).as("bytes held by protected requests as samples are joined")
					.isLessThanOrEqualTo(BUDGET / 2);
			}
		}
		// About 176 kB each once joined: only two fit in the half, the latest protected.
		assertThat(store.protectedCount()).isEqualTo(2);
		assertThat(slow.subList(3, 5)).allMatch((record) -> record.retainedAs() == RetainedAs.SLOWEST);
		// Ordinary traffic of the same name, faster than the five, with samples.
		for (int i = 0; i < 3_000; i++) {
			request(store, "GET /report", 10, 20);
			assertThat(protectedBytes(store)).as("bytes held by protected requests").isLessThanOrEqualTo(BUDGET / 2);
		}
		long recentBytes = 0;
		List<SpanRecord> recent = store.recent((r) -> r.retainedAs() == RetainedAs.RECENT, 100_000);
		for (SpanRecord record : recent) {
			recentBytes += record.ownSampleBytes() + SpanProfileStore.BYTES_PER_SPAN;
		}
		// The store stops a pass a 64th under its bound and refills up to it; the frame
		// table holds nothing here.
		assertThat(recentBytes).as("bytes held by %d recent requests", recent.size())
			.isGreaterThanOrEqualTo(BUDGET / 2 - BUDGET / 64);
		assertThat(slow.subList(3, 5)).allMatch((record) -> store.find(record.spanId()) == record);
	}

	@Test
	void samplesOfAChildStartedAfterTheRequestWasProtectedCountToo() {
		SpanProfileStore store = store();
		long end = this.clock.addAndGet(MS);
		SpanRecord slow = store.spanStarted("slow", "slow", null, false, "GET /report", "SERVER", end - 2_000 * MS,
				"main");
		store.spanEnded("slow", "GET /report", "OK", end, false);
		assertThat(slow.retainedAs()).isEqualTo(RetainedAs.SLOWEST);
		// An asynchronous child of the finished request, its samples joined later still.
		SpanRecord child = store.spanStarted("slow", "async", "slow", true, "work", "INTERNAL",
				this.clock.addAndGet(MS), "pool");
		for (int i = 0; i < 10_000 && store.find("slow") != null && slow.retainedAs() != RetainedAs.RECENT; i++) {
			store.addSample(child, SampleKind.CPU, new int[] { 1, 2, 3, 4, 5, 6, 7, 8, 100_000 + i }, 1);
		}
		// Past half of the memory, the request is protected no longer.
		assertThat(slow.retainedAs()).isEqualTo(RetainedAs.RECENT);
		assertThat(child.ownSampleBytes() + 2L * SpanProfileStore.BYTES_PER_SPAN).isGreaterThan(BUDGET / 2)
			.isLessThan(BUDGET / 2 + 1024);
		assertThat(store.protectedCount()).isZero();
	}

	@Test
	void aRequestEndingWithItsSamplesJoinedReleasesOnlyWhatMakesRoomForIt() {
		SpanProfileStore store = store();
		// Longer than a dump interval, a request ends with most of its samples joined:
		// four such slow requests of about 100 kB each fill most of the half (512 kB).
		List<SpanRecord> slow = new ArrayList<>();
		for (int r = 0; r < 5; r++) {
			String id = "slow" + r;
			long end = this.clock.addAndGet(MS);
			SpanRecord record = store.spanStarted(id, id, null, false, "GET /report", "SERVER", end - 5_000 * MS,
					"main");
			// The fifth, the slowest, holds about 150 kB.
			int samples = (r < 4) ? 1_000 : 1_500;
			for (int i = 0; i < samples; i++) {
				store.addSample(record, SampleKind.CPU, new int[] { 1, 2, 3, 4, 5, 6, 7, 8, 200_000 + r * 10_000 + i },
						1);
			}
			store.spanEnded(id, "GET /report", "OK", end + r * MS, false);
			slow.add(record);
			assertThat(protectedBytes(store)).as("bytes held by protected requests").isLessThanOrEqualTo(BUDGET / 2);
		}
		// Room for the fifth takes releasing the one protected longest ago, and no more.
		assertThat(store.protectedCount()).isEqualTo(4);
		assertThat(slow.get(0).retainedAs()).isEqualTo(RetainedAs.RECENT);
		assertThat(slow.subList(1, 5)).allMatch((record) -> record.retainedAs() == RetainedAs.SLOWEST);
	}

	@Test
	void samplesAddedWhileAnotherThreadEvictsAreCountedOnceItIsDone() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(20, BUDGET, true, new RetentionSettings(1, Duration.ofHours(1), 100, 0)),
				this.clock::get);
		long end = this.clock.addAndGet(MS);
		SpanRecord slow = store.spanStarted("slow", "slow", null, false, "GET /report", "SERVER", end - 2_000 * MS,
				"main");
		store.spanEnded("slow", "GET /report", "OK", end, false);
		for (int i = 0; i < 19; i++) {
			request(store, "GET /report", 10, 0);
		}
		assertThat(slow.retainedAs()).isEqualTo(RetainedAs.SLOWEST);
		// No sample joined yet: the next request dropped awaits its samples, and tells so
		// on the evicting thread, in the middle of its pass. Then the collector joins the
		// slow request's samples, past the half, and finds the pass under way.
		store.profilesCompleteUpTo(0);
		store.whenRequestsAwait(() -> {
			Thread collector = new Thread(() -> {
				for (int i = 0; protectedBytes(store) <= BUDGET / 2; i++) {
					store.addSample(slow, SampleKind.CPU, new int[] { 1, 2, 3, 4, 5, 6, 7, 8, 100_000 + i }, 1);
				}
			});
			collector.start();
			try {
				collector.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		request(store, "GET /report", 10, 0);
		assertThat(store.awaitingSamples()).as("requests awaiting their samples").isOne();
		assertThat(protectedBytes(store)).as("bytes held by protected requests once the pass is done")
			.isLessThanOrEqualTo(BUDGET / 2);
		assertThat(slow.retainedAs()).isEqualTo(RetainedAs.RECENT);
	}

	/** A store keeping the five slowest requests of each name, on the test's clock. */
	private SpanProfileStore store() {
		return new SpanProfileStore(
				new StoreSettings(10_000, BUDGET, true, new RetentionSettings(5, Duration.ofHours(1), 100, 0)),
				this.clock::get);
	}

	/** What the requests protected now hold, as the store charges them. */
	private static long protectedBytes(SpanProfileStore store) {
		long bytes = 0;
		for (SpanRecord root : store.recent((r) -> r.isLocalRoot() && r.retainedAs() != RetainedAs.RECENT, 100_000)) {
			bytes += groupBytes(root);
		}
		return bytes;
	}

	private static long groupBytes(SpanRecord record) {
		long bytes = record.ownSampleBytes() + SpanProfileStore.BYTES_PER_SPAN;
		for (SpanRecord child : record.children()) {
			bytes += groupBytes(child);
		}
		return bytes;
	}

	/**
	 * A request ending now after {@code durationMillis}, its samples joined after its
	 * end.
	 */
	private void request(SpanProfileStore store, String name, long durationMillis, int samples) {
		String id = "s" + (this.sequence++);
		long end = this.clock.addAndGet(MS);
		SpanRecord record = store.spanStarted(id, id, null, false, name, "SERVER", end - durationMillis * MS, "main");
		store.spanEnded(id, name, "OK", end, false);
		for (int i = 0; i < samples; i++) {
			store.addSample(record, SampleKind.CPU, new int[] { 1, 2, 1000 + this.sequence * 7 + i }, 1);
		}
	}

}
