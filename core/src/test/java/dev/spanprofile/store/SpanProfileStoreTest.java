package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpanProfileStoreTest {

	@Test
	void evictsOldestFinishedRequestsWithTheirChildren() {
		// Recent requests only: kept as its name's slowest, r1 would stay (see
		// RetentionBudgetTest).
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(4, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));
		store.spanStarted("t1", "r1", null, false, "r1", "SERVER", 1, "main");
		store.spanStarted("t1", "c1", "r1", true, "c1", "INTERNAL", 2, "main");
		store.spanEnded("c1", "c1", "OK", 3, false);
		store.spanEnded("r1", "r1", "OK", 4, false);
		store.spanStarted("t2", "r2", null, false, "r2", "SERVER", 5, "main");
		store.spanStarted("t3", "r3", null, false, "r3", "SERVER", 6, "main");
		store.spanStarted("t4", "r4", null, false, "r4", "SERVER", 7, "main");
		// Five spans over a limit of four: the oldest finished request goes whole, child
		// included.
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
		// Every span has its own name here: retention would keep each as its name's
		// slowest.
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

	/**
	 * The collector adds samples while requests are evicted (by the budget, or when an
	 * excluded request ends). Every byte charged for a sample must be refunded when its
	 * span goes, or the store believes itself fuller and fuller and evicts ever younger
	 * requests. Once everything is gone, the sample bytes must be back at zero.
	 */
	@Test
	void evictionRacingWithSamplesRefundsEveryByteCharged() throws Exception {
		int spans = 5_000;
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(2 * spans, Long.MAX_VALUE, false));
		SpanRecord[] records = new SpanRecord[spans];
		for (int i = 0; i < spans; i++) {
			records[i] = store.spanStarted("t", "s" + i, null, false, "s" + i, "SERVER", i, "main");
		}
		AtomicInteger sampling = new AtomicInteger(-1);
		AtomicInteger evicted = new AtomicInteger(-1);
		Thread collector = new Thread(() -> {
			for (int i = 0; i < spans; i++) {
				sampling.set(i);
				// Samples keep arriving for the span until its eviction is over; each
				// stack is new to the span, so every sample that lands charges bytes.
				for (int frame = 0; evicted.get() < i; frame++) {
					store.addSample(records[i], SampleKind.CPU, new int[] { frame }, 1);
				}
			}
		});
		Thread evictor = new Thread(() -> {
			for (int i = 0; i < spans; i++) {
				while (sampling.get() < i) {
					Thread.onSpinWait();
				}
				store.spanEnded("s" + i, "s" + i, "OK", i + 1, true);
				evicted.set(i);
			}
		});
		collector.start();
		evictor.start();
		collector.join(60_000);
		evictor.join(60_000);
		assertThat(collector.isAlive() || evictor.isAlive()).isFalse();
		assertThat(store.size()).isZero();
		assertThat(store.approximateBytes()).isZero();
	}

	@Test
	void frameNamesCountAgainstTheBudgetAndStopAtTheirShare() {
		long budget = 256 * 1024;
		// Every span has a name of its own: kept as its name's slowest, none would be
		// evicted for the frames.
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(1000, budget, false, RetentionSettings.recentOnly()));
		FrameTable frames = store.frames();
		List<Integer> ids = new ArrayList<>();
		// Far more distinct frames than a quarter of the budget holds (~130 bytes each:
		// ~500 fit).
		for (int i = 0; i < 20_000; i++) {
			ids.add(frames.intern("com.example.generated.Type" + i + ".method", FrameKind.JAVA));
		}
		long share = budget / SpanProfileStore.FRAME_TABLE_SHARE;
		assertThat(frames.approximateBytes()).isGreaterThan(share - 200).isLessThanOrEqualTo(share + 200);
		assertThat(frames.size()).isLessThan(1000);
		// Every frame past the bound shares the placeholder, which says why the detail is
		// missing.
		int overflow = ids.get(ids.size() - 1);
		assertThat(frames.name(overflow)).isEqualTo(FrameTable.OVERFLOW_NAME);
		assertThat(ids.get(ids.size() - 2)).isEqualTo(overflow);
		assertThat(frames.name(ids.get(0))).isEqualTo("com.example.generated.Type0.method");
		// The frames are part of what the store holds, and samples are evicted to make
		// room for them.
		assertThat(store.approximateBytes()).isEqualTo(frames.approximateBytes());
		for (int i = 0; i < 200; i++) {
			SpanRecord record = store.spanStarted("t" + i, "s" + i, null, false, "s" + i, "SERVER", i, "main");
			for (int frame = 0; frame < 30; frame++) {
				store.addSample(record, SampleKind.CPU, new int[] { i, 1000 + frame }, 1);
			}
			store.spanEnded("s" + i, "s" + i, "OK", i + 1, false);
			assertThat(store.approximateBytes()).isLessThanOrEqualTo(budget);
		}
		assertThat(store.find("s0")).isNull();
	}

	@Test
	void aNameCanBeTwoFramesOfDifferentKinds() {
		FrameTable frames = new FrameTable();
		int java = frames.intern("Unsafe.park", FrameKind.JAVA);
		int nativeFrame = frames.intern("Unsafe.park", FrameKind.NATIVE);
		assertThat(nativeFrame).isNotEqualTo(java);
		assertThat(frames.kind(java)).isEqualTo(FrameKind.JAVA);
		assertThat(frames.kind(nativeFrame)).isEqualTo(FrameKind.NATIVE);
		assertThat(frames.intern("Unsafe.park", FrameKind.JAVA)).isEqualTo(java);
	}

}
