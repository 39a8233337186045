package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A finished request reaches the listeners of completed requests exactly once, on the
 * thread that completes profiles (the collector's), whether it stays stored, awaits its
 * samples or is dropped without them.
 */
class FinishedRequestsTest {

	private final List<String> handed = new ArrayList<>();

	private final List<Thread> handedOn = new ArrayList<>();

	private SpanProfileStore store(int maxSpans, int awaitingRoom) {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(maxSpans, Long.MAX_VALUE, false, RetentionSettings.recentOnly(), awaitingRoom));
		store.onRequestComplete((root) -> {
			this.handed.add(root.spanId());
			this.handedOn.add(Thread.currentThread());
		});
		store.profilesCompleteUpTo(0);
		return store;
	}

	@Test
	void aRequestIsHandedOnOnceItsSamplesAreJoinedAndNotAgainWhenDropped() {
		SpanProfileStore store = store(1, 10);
		request(store, "a", 1_000, 2_000);
		store.profilesCompleteUpTo(1_999);
		assertThat(this.handed).as("samples up to its end not joined yet").isEmpty();
		assertThat(store.incompleteRequests()).isEqualTo(1);
		store.profilesCompleteUpTo(2_000);
		assertThat(this.handed).containsExactly("a");
		// Complete: the next request pushes it out at once, without awaiting anything.
		request(store, "b", 2_500, 3_500);
		assertThat(store.findTracked("a")).isNull();
		store.profilesCompleteUpTo(4_000);
		assertThat(this.handed).containsExactly("a", "b");
		assertThat(store.incompleteRequests()).isZero();
	}

	@Test
	void aRequestDroppedWithoutItsSamplesIsHandedOnByTheCollectorNotTheDroppingThread() throws Exception {
		// No room to await samples: a dropped request goes with what it has.
		SpanProfileStore store = store(1, 0);
		request(store, "a", 1_000, 2_000);
		Thread dropping = new Thread(() -> request(store, "b", 1_500, 2_500));
		dropping.start();
		dropping.join();
		assertThat(store.findTracked("a")).isNull();
		assertThat(store.droppedIncomplete()).isEqualTo(1);
		assertThat(this.handed).as("nothing handed on by the thread that dropped it").isEmpty();
		store.profilesCompleteUpTo(0);
		assertThat(this.handed).containsExactly("a");
		assertThat(this.handedOn).containsExactly(Thread.currentThread());
		store.profilesCompleteUpTo(3_000);
		assertThat(this.handed).containsExactly("a", "b");
	}

	@Test
	void aRequestDroppedInTheInstantItEndsIsHandedOnOnceItsEndIsKnown() {
		FinishedRequests finished = new FinishedRequests(10);
		finished.addListener((root) -> this.handed.add(root.spanId()));
		SpanProfileStore store = store(10, 10);
		SpanRecord root = store.spanStarted("t", "a", null, false, "GET /a", "SERVER", 1_000, "w");
		// Queued as it ends, dropped for good before it is marked ended.
		finished.ended(root);
		root.evict();
		finished.completeUpTo(Long.MAX_VALUE);
		assertThat(this.handed).isEmpty();
		root.ended("GET /a", "OK", 2_000);
		finished.completeUpTo(0);
		assertThat(this.handed).as("gone without its samples: handed on with what it has").containsExactly("a");
		finished.completeUpTo(Long.MAX_VALUE);
		assertThat(this.handed).containsExactly("a");
	}

	@Test
	void aRequestDroppedWhileRunningIsCountedAndNeverHandedOn() {
		SpanProfileStore store = store(1, 10);
		store.spanStarted("t-a", "a", null, false, "GET /a", "SERVER", 1_000, "main");
		// Twice max-spans in flight: the oldest running request goes.
		store.spanStarted("t-b", "b", null, false, "GET /b", "SERVER", 1_100, "main");
		assertThat(store.findTracked("a")).isNull();
		assertThat(store.droppedRunning()).isEqualTo(1);
		store.spanEnded("a", "GET /a", "OK", 2_000, false);
		store.spanEnded("b", "GET /b", "OK", 2_100, false);
		store.profilesCompleteUpTo(Long.MAX_VALUE);
		assertThat(this.handed).containsExactly("b");
		assertThat(store.droppedIncomplete()).isZero();
	}

	private static void request(SpanProfileStore store, String id, long start, long end) {
		store.spanStarted("t-" + id, id, null, false, "GET /" + id, "SERVER", start, "main");
		store.spanEnded(id, "GET /" + id, "OK", end, false);
	}

}
