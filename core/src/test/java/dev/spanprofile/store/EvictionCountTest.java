package dev.spanprofile.store;

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

}
