package dev.spanprofile.store;

import dev.spanprofile.sampling.SampleKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpanProfileStoreTest {

	@Test
	void evictsOldestFinishedRequestsWithTheirChildren() {
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(4, Long.MAX_VALUE, false));
		store.spanStarted("t1", "r1", null, false, "r1", "SERVER", 1, "main");
		store.spanStarted("t1", "c1", "r1", true, "c1", "INTERNAL", 2, "main");
		store.spanEnded("c1", "c1", "OK", 3, false);
		store.spanEnded("r1", "r1", "OK", 4, false);
		store.spanStarted("t2", "r2", null, false, "r2", "SERVER", 5, "main");
		store.spanStarted("t3", "r3", null, false, "r3", "SERVER", 6, "main");
		store.spanStarted("t4", "r4", null, false, "r4", "SERVER", 7, "main");
		// Five spans over a limit of four: the oldest finished request goes whole, child included.
		assertThat(store.size()).isEqualTo(3);
		assertThat(store.find("r1")).isNull();
		assertThat(store.find("c1")).isNull();
		assertThat(store.find("r2")).isNotNull();
	}

	@Test
	void keepsRunningRequestsUntilTwiceTheLimit() {
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(2, Long.MAX_VALUE, true));
		for (int i = 0; i < 10; i++) {
			store.spanStarted("t" + i, "s" + i, null, false, "s" + i, "SERVER", i, "main");
			assertThat(store.size()).isLessThan(4);
		}
		assertThat(store.find("s9")).isNotNull();
	}

	@Test
	void memoryBudgetEvictsFinishedRequests() {
		// Every span has its own name here: retention would keep each as its name's slowest.
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(1000, 64 * 1024, false, RetentionSettings.recentOnly()));
		for (int i = 0; i < 50; i++) {
			SpanRecord record = store.spanStarted("t" + i, "s" + i, null, false, "s" + i, "SERVER", i, "main");
			for (int frame = 0; frame < 30; frame++) {
				store.addSample(record, SampleKind.CPU, new int[] { i, 1000 + frame, 2000 + i * 31 + frame }, 1);
			}
			store.spanEnded("s" + i, "s" + i, "OK", i + 1, false);
		}
		assertThat(store.approximateBytes()).isLessThanOrEqualTo(64 * 1024);
		assertThat(store.find("s49")).isNotNull();
		assertThat(store.find("s0")).isNull();
	}

	@Test
	void memoryBudgetHoldsForSpansWithoutSamples() {
		long budget = 100L * SpanProfileStore.BYTES_PER_SPAN;
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(100_000, budget, false));
		for (int i = 0; i < 1000; i++) {
			store.spanStarted("t" + i, "s" + i, null, false, "s" + i, "SERVER", i, "main");
			store.spanEnded("s" + i, "s" + i, "OK", i + 1, false);
			assertThat(store.approximateBytes()).isLessThanOrEqualTo(budget + SpanProfileStore.BYTES_PER_SPAN);
		}
		assertThat(store.find("s999")).isNotNull();
	}

	@Test
	void excludedRequestIsDroppedWhenItsRootEnds() {
		SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());
		store.spanStarted("t", "root", null, false, "GET /actuator", "SERVER", 1, "main");
		store.spanStarted("t", "child", "root", true, "child", "INTERNAL", 2, "main");
		store.spanEnded("child", null, "OK", 3, false);
		store.spanEnded("root", null, "OK", 4, true);
		assertThat(store.size()).isZero();
	}

	@Test
	void remoteParentMakesALocalRoot() {
		SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());
		SpanRecord record = store.spanStarted("t", "s", "remote-parent", false, "GET /", "SERVER", 1, "main");
		assertThat(record.isLocalRoot()).isTrue();
		assertThat(record.parentSpanId()).isEqualTo("remote-parent");
	}

}
