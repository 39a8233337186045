package dev.spanprofile.store;

import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EvictionCountTest {

	@Test
	void countsEverySpanOfAnEvictedRequest() {
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(4, Long.MAX_VALUE, false));
		store.spanStarted("t1", "r1", null, false, "r1", "SERVER", 1, "main");
		store.spanStarted("t1", "c1", "r1", true, "c1", "INTERNAL", 2, "main");
		store.spanStarted("t1", "g1", "c1", true, "g1", "INTERNAL", 3, "main");
		store.spanEnded("g1", "g1", "OK", 4, false);
		store.spanEnded("c1", "c1", "OK", 4, false);
		store.spanEnded("r1", "r1", "OK", 5, false);
		assertThat(store.evictedSpans()).isZero();
		store.spanStarted("t2", "r2", null, false, "r2", "SERVER", 6, "main");
		store.spanStarted("t3", "r3", null, false, "r3", "SERVER", 7, "main");
		// Five spans over a limit of four: the whole first request (three spans) goes.
		assertThat(store.find("r1")).isNull();
		assertThat(store.evictedSpans()).isEqualTo(3);
	}

	@Test
	void requestsLeftOutOnPurposeAreNotEvictions() {
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(4, Long.MAX_VALUE, false));
		store.spanStarted("t1", "r1", null, false, "GET /actuator/health", "SERVER", 1, "main");
		store.spanEnded("r1", "GET /actuator/health", "OK", 2, true);
		assertThat(store.find("r1")).isNull();
		assertThat(store.evictedSpans()).isZero();
	}

	@Test
	void aPassOverTheBoundsMakesRoomForTheNextSixtyFourthOfTheRequests() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(640, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));
		for (int i = 0; i < 641; i++) {
			store.spanStarted("t" + i, "r" + i, null, false, "GET /", "SERVER", i + 1, "main");
			store.spanEnded("r" + i, "GET /", "OK", i + 2, false);
		}
		// One over the limit: the pass drops the oldest eleven, to 630 of 640.
		assertThat(store.size()).isEqualTo(630);
		assertThat(IntStream.rangeClosed(0, 640).filter((i) -> store.find("r" + i) != null)).as("requests kept")
			.containsExactlyElementsOf(IntStream.rangeClosed(11, 640).boxed().toList());
		for (int i = 641; i < 651; i++) {
			store.spanStarted("t" + i, "r" + i, null, false, "GET /", "SERVER", i + 1, "main");
		}
		// The next ten fill the room without a pass.
		assertThat(store.size()).isEqualTo(640);
		assertThat(store.evictedSpans()).isEqualTo(11);
		store.spanStarted("t651", "r651", null, false, "GET /", "SERVER", 652, "main");
		assertThat(store.size()).isEqualTo(630);
		assertThat(store.evictedSpans()).isEqualTo(22);
	}

}
