package dev.spanprofile.store;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests their callers asked for ({@link SpanProfileStore#keepWhenEnded}) are kept as
 * {@link RetainedAs#FORCED}, however fast and whatever their name's slots hold.
 */
class ForcedRetentionTest {

	private static final long MS = 1_000_000L;

	private final AtomicLong clock = new AtomicLong(1_000_000 * MS);

	private int sequence;

	@Test
	void forcedFastRequestOutlivesManyLaterRequestsOfItsName() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(50, Long.MAX_VALUE, true, new RetentionSettings(5, Duration.ofHours(1), 100, 60)),
				this.clock::get);
		for (int i = 0; i < 10; i++) {
			request(store, "GET /owners", 500, false);
		}
		// The fastest of its name: no slowest slot would take it.
		String forced = request(store, "GET /owners", 1, true);
		String unforced = request(store, "GET /owners", 1, false);
		for (int i = 0; i < 1000; i++) {
			request(store, "GET /owners", 100, false);
			assertThat(store.size()).isLessThanOrEqualTo(50);
		}
		assertThat(store.find(unforced)).isNull();
		assertThat(store.find(forced)).isNotNull();
		assertThat(store.find(forced).retainedAs()).isEqualTo(RetainedAs.FORCED);
		assertThat(store.find(forced).isForced()).isTrue();
	}

	@Test
	void forcedRequestIsReleasedWhenItsWindowEnds() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(20, Long.MAX_VALUE, true, new RetentionSettings(0, Duration.ofMinutes(1), 100, 0)),
				this.clock::get);
		String forced = request(store, "GET /owners", 1, true);
		this.clock.addAndGet(59_000 * MS);
		store.evictIfNeeded();
		assertThat(store.find(forced).retainedAs()).isEqualTo(RetainedAs.FORCED);
		this.clock.addAndGet(2_000 * MS);
		store.evictIfNeeded();
		assertThat(store.find(forced).retainedAs()).isEqualTo(RetainedAs.RECENT);
		assertThat(store.protectedCount()).isZero();
		// Still marked as asked for in the views.
		assertThat(store.find(forced).isForced()).isTrue();
	}

	@Test
	void forcedChildMarksItsWholeRequest() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(20, Long.MAX_VALUE, true, new RetentionSettings(0, Duration.ofMinutes(1), 100, 0)),
				this.clock::get);
		long start = this.clock.addAndGet(MS);
		SpanRecord root = store.spanStarted("t", "root", null, false, "GET /x", "SERVER", start, "main");
		SpanRecord child = store.spanStarted("t", "child", "root", true, "query", "CLIENT", start, "main");
		store.keepWhenEnded(child, "http get /x");
		store.spanEnded("child", "query", "OK", start + MS, false);
		store.spanEnded("root", "GET /x", "OK", start + 2 * MS, false);
		assertThat(root.retainedAs()).isEqualTo(RetainedAs.FORCED);
		// The capture that took it, on every span of the request.
		assertThat(root.capture()).isEqualTo("http get /x");
		assertThat(child.capture()).isEqualTo("http get /x");
		assertThat(child.isForced()).isTrue();
		assertThat(store.protectedCount()).isEqualTo(1);
	}

	@Test
	void forcedRequestsHaveSlotsOfTheirOwnAndTheOldestGoesBeyondThem() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(10_000, Long.MAX_VALUE, true, new RetentionSettings(0, Duration.ofHours(1), 100, 0)),
				this.clock::get);
		String first = request(store, "GET /owners", 1, true);
		String second = request(store, "GET /owners", 1, true);
		for (int i = 2; i < ProtectionSlots.MAX_FORCED + 1; i++) {
			request(store, "GET /owners", 1, true);
		}
		assertThat(store.protectedCount()).isEqualTo(ProtectionSlots.MAX_FORCED);
		assertThat(store.find(first).retainedAs()).isEqualTo(RetainedAs.RECENT);
		assertThat(store.find(second).retainedAs()).isEqualTo(RetainedAs.FORCED);
	}

	private String request(SpanProfileStore store, String name, long durationMillis, boolean forced) {
		String id = "s" + (this.sequence++);
		long end = this.clock.addAndGet(MS);
		SpanRecord record = store.spanStarted(id, id, null, false, name, "SERVER", end - durationMillis * MS, "main");
		if (forced) {
			store.keepWhenEnded(record);
		}
		store.spanEnded(id, name, "OK", end, false);
		return id;
	}

}
