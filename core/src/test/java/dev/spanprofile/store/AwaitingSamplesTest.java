package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.profile.SampleKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests the store drops before the samples up to their end are joined: they wait, out
 * of the views, for those samples, within the store's bounds, and reach the drop listener
 * once, complete.
 */
class AwaitingSamplesTest {

	private static final int[] STACK = { 1, 2, 3 };

	private final List<SpanRecord> handedOff = new ArrayList<>();

	/** A store with as much room for awaiting requests as for stored spans. */
	private SpanProfileStore store(int maxSpans, long maxBytes) {
		return store(new StoreSettings(maxSpans, maxBytes, false, RetentionSettings.recentOnly(), maxSpans));
	}

	private SpanProfileStore store(StoreSettings settings) {
		SpanProfileStore store = new SpanProfileStore(settings);
		store.onRequestComplete(this.handedOff::add);
		store.profilesCompleteUpTo(0);
		return store;
	}

	private static void request(SpanProfileStore store, String id, long start, long end) {
		store.spanStarted("t-" + id, id, null, false, "GET /" + id, "SERVER", start, "main");
		store.spanEnded(id, "GET /" + id, "OK", end, false);
	}

	@Test
	void aDroppedRequestTakesItsSamplesOutOfSightUntilTheyAreAllJoined() {
		SpanProfileStore store = store(2, Long.MAX_VALUE);
		store.spanStarted("t-r1", "r1", null, false, "GET /r1", "SERVER", 1, "main");
		store.spanStarted("t-r1", "c1", "r1", true, "query", "CLIENT", 2, "main");
		store.spanEnded("c1", "query", "OK", 5, false);
		store.spanEnded("r1", "GET /r1", "OK", 10, false);
		request(store, "r2", 11, 12);

		assertThat(store.find("r1")).as("dropped").isNull();
		assertThat(store.find("c1")).isNull();
		assertThat(store.recent((span) -> true, 10)).extracting(SpanRecord::spanId).containsExactly("r2");
		assertThat(store.trace("t-r1")).isEmpty();
		assertThat(store.evictedSpans()).isEqualTo(2);
		assertThat(store.awaitingSamples()).isEqualTo(1);
		assertThat(this.handedOff).as("not handed off before its samples are in").isEmpty();

		SpanRecord root = store.findTracked("r1");
		SpanRecord child = store.findTracked("c1");
		long withoutSamples = store.approximateBytes();
		store.addSample(root, SampleKind.CPU, STACK, 1);
		store.addSample(child, SampleKind.CPU, STACK, 1);
		store.addSample(child, SampleKind.CPU, STACK, 1);
		assertThat(InclusiveSamples.count(root, SampleKind.CPU)).isEqualTo(3);
		assertThat(store.approximateBytes()).as("its samples count against the memory bound")
			.isEqualTo(withoutSamples + 2 * SampledStacks.bytesOf(STACK.length));

		store.profilesCompleteUpTo(9);
		assertThat(this.handedOff).as("ended after what is joined").isEmpty();
		store.profilesCompleteUpTo(10);
		assertThat(this.handedOff).containsExactly(root);
		assertThat(InclusiveSamples.count(this.handedOff.get(0), SampleKind.CPU)).isEqualTo(3);
		assertThat(store.findTracked("r1")).isNull();
		assertThat(store.findTracked("c1")).isNull();
		assertThat(store.awaitingSamples()).isZero();
		assertThat(store.droppedIncomplete()).isZero();
		// Refunded exactly: what is left is the stored span, which has no samples.
		assertThat(store.approximateBytes())
			.isEqualTo(store.size() * SpanProfileStore.BYTES_PER_SPAN + store.frames().approximateBytes());
		store.addSample(root, SampleKind.CPU, STACK, 1);
		assertThat(InclusiveSamples.count(root, SampleKind.CPU)).as("gone: samples refused").isEqualTo(3);
		store.profilesCompleteUpTo(100);
		assertThat(this.handedOff).as("handed on once, and the stored one once complete")
			.containsExactly(root, store.find("r2"));
	}

	@Test
	void aRequestWhoseSamplesAreAllJoinedGoesAtOnce() {
		SpanProfileStore store = store(1, Long.MAX_VALUE);
		request(store, "r1", 1, 2);
		store.profilesCompleteUpTo(2);
		request(store, "r2", 3, 4);
		assertThat(this.handedOff).extracting(SpanRecord::spanId).containsExactly("r1");
		assertThat(store.findTracked("r1")).isNull();
		assertThat(store.awaitingSamples()).isZero();
	}

	@Test
	void atMostTheirRoomOfRequestsAwaitAndTheRestGoWithWhatTheyHaveCounted() {
		SpanProfileStore store = store(3, Long.MAX_VALUE);
		for (int i = 1; i <= 10; i++) {
			request(store, "r" + i, 10 * i, 10 * i + 5);
		}
		// r8..r10 stored, r1..r3 awaiting, r4..r7 found no room.
		assertThat(store.size()).isEqualTo(3);
		assertThat(store.awaitingSamples()).isEqualTo(3);
		assertThat(store.droppedIncomplete()).isEqualTo(4);
		assertThat(this.handedOff).as("handed on by the collector, not the dropping thread").isEmpty();
		// A collection that joined nothing new hands on those gone without their samples.
		store.profilesCompleteUpTo(0);
		assertThat(this.handedOff).extracting(SpanRecord::spanId).containsExactly("r4", "r5", "r6", "r7");
		assertThat(store.findTracked("r1")).isNotNull();
		assertThat(store.findTracked("r4")).isNull();
		store.profilesCompleteUpTo(Long.MAX_VALUE);
		assertThat(this.handedOff).extracting(SpanRecord::spanId)
			.containsExactly("r4", "r5", "r6", "r7", "r1", "r2", "r3", "r8", "r9", "r10");
	}

	@Test
	void byDefaultTenThousandRequestsMayAwaitHoweverFewSpansAreKept() {
		StoreSettings settings = new StoreSettings(3, Long.MAX_VALUE, false, RetentionSettings.recentOnly());
		assertThat(settings.awaitingRoom()).isEqualTo(StoreSettings.DEFAULT_AWAITING_ROOM).isEqualTo(10_000);
		assertThat(new StoreSettings(20_000, Long.MAX_VALUE, true).awaitingRoom()).isEqualTo(20_000);
		SpanProfileStore store = store(settings);
		for (int i = 1; i <= 10; i++) {
			request(store, "r" + i, 10 * i, 10 * i + 5);
		}
		// r8..r10 stored, the seven before them awaiting: none found no room.
		assertThat(store.size()).isEqualTo(3);
		assertThat(store.awaitingSamples()).isEqualTo(7);
		assertThat(store.droppedIncomplete()).isZero();
		assertThat(this.handedOff).isEmpty();
	}

	@Test
	void whenMemoryRunsShortRequestsAwaitingSamplesGoFirstAndAreCounted() {
		// Room for three spans' metadata and one short stack, less than the five-frame
		// stack added below.
		long maxBytes = 3 * SpanProfileStore.BYTES_PER_SPAN + SampledStacks.bytesOf(2);
		SpanProfileStore store = store(2, maxBytes);
		request(store, "r1", 1, 2);
		request(store, "r2", 3, 4);
		request(store, "r3", 5, 6);
		assertThat(store.awaitingSamples()).isEqualTo(1);
		SpanRecord waiting = store.findTracked("r1");
		// Samples for the waiting request push the store over its memory bound: the
		// waiting one goes first, with what it has, and the stored requests stay.
		store.addSample(waiting, SampleKind.CPU, new int[] { 1, 2, 3, 4, 5 }, 1);
		assertThat(store.approximateBytes()).isLessThanOrEqualTo(maxBytes);
		store.profilesCompleteUpTo(0);
		assertThat(this.handedOff).extracting(SpanRecord::spanId).containsExactly("r1");
		assertThat(store.droppedIncomplete()).isEqualTo(1);
		assertThat(store.awaitingSamples()).isZero();
		assertThat(store.find("r2")).isNotNull();
		assertThat(store.find("r3")).isNotNull();
	}

	@Test
	void aStoreNobodyJoinsSamplesForHasNothingToAwait() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(1, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));
		store.onRequestComplete(this.handedOff::add);
		request(store, "r1", 1, 2);
		request(store, "r2", 3, 4);
		assertThat(store.findTracked("r1")).isNull();
		assertThat(store.awaitingSamples()).isZero();
		store.profilesCompleteUpTo(Long.MAX_VALUE);
		assertThat(this.handedOff).extracting(SpanRecord::spanId).containsExactly("r1", "r2");
		assertThat(store.droppedIncomplete()).isZero();
	}

}
