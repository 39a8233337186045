package dev.spanprofile.lifecycle;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import dev.spanprofile.attribution.SampleAttributor;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import dev.spanprofile.tracking.NanoClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The collector's pace and forgetting on a clock the test steps: when the collector
 * drains at its quickest pace, and how far back change points are kept after sampling was
 * switched off for a while.
 */
class CollectorPacingTest {

	private static final long MS = 1_000_000L;

	private static final Duration DUMP_INTERVAL = Duration.ofSeconds(3);

	private static final CollectorSettings SETTINGS = CollectorSettings.forDumpInterval(DUMP_INTERVAL);

	private final AtomicLong clock = new AtomicLong(System.nanoTime());

	private int sequence;

	@Test
	void aFewRequestsAwaitingTheirSamplesInARoomFarFromFullDoNotHurryTheCollector() {
		// Room for 10,000 requests to await their samples; two are stored.
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(2, Long.MAX_VALUE, false, RetentionSettings.recentOnly(), 10_000));
		Collector collector = collector(store, this.clock::get);
		collector.collectNow();
		// A steady trickle: 20 requests end in a second, 18 of them dropped from the
		// store
		// before the next collection joins their samples.
		for (int i = 0; i < 20; i++) {
			this.clock.addAndGet(50 * MS);
			request(store);
		}
		assertThat(store.awaitingSamples()).isEqualTo(18);
		this.clock.addAndGet(10 * MS);
		long next = collector.tick();
		// At that rate the room fills in about half an hour: no collection is brought
		// forward, and the collector drains at its pace (nothing to drain: the slowest).
		assertThat(next).as("milliseconds to the next drain").isGreaterThan(SETTINGS.quickestDrain().toMillis());
		// A burst that would fill the room within the margin and a slow drain hurries it.
		for (int i = 0; i < 7_482; i++) {
			request(store);
		}
		this.clock.addAndGet(10 * MS);
		assertThat(collector.tick()).as("milliseconds to the next drain")
			.isLessThanOrEqualTo(SETTINGS.quickestDrain().toMillis());
	}

	/**
	 * {@code EarlyCollectionTest}'s requests on a loaded machine, stepped: a store and a
	 * room of 40, a request every 11 ms, and collections that take 150 ms each while
	 * requests go on ending (the engine promises samples up to the dump's start). A
	 * collection brought forward when the room would fill within the margin at the rate
	 * since the collection before came too late: that rate counts the stretch in which
	 * the store dropped its complete requests first, and the margin left nothing for the
	 * collection's own time.
	 */
	@Test
	void aSmallRoomDoesNotOverflowWhileCollectionsTakeLong() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(40, Long.MAX_VALUE, true, RetentionSettings.recentOnly(), 40));
		long[] nextRequest = { this.clock.get() };
		Runnable requestsUpToNow = () -> {
			while (nextRequest[0] <= this.clock.get()) {
				request(store);
				nextRequest[0] += 11 * MS;
			}
		};
		Collector collector = collectorDumping(store, () -> {
			long start = this.clock.get();
			for (int i = 0; i < 15; i++) {
				this.clock.addAndGet(10 * MS);
				requestsUpToNow.run();
			}
			return start;
		});
		collector.collectNow();
		long end = this.clock.get() + 300 * 11 * MS;
		long nextTick = this.clock.get();
		long collections = collector.stats().count();
		while (this.clock.get() < end) {
			while (this.clock.get() < nextTick) {
				this.clock.addAndGet(MS);
				requestsUpToNow.run();
			}
			nextTick = this.clock.get() + collector.tick() * MS;
		}
		collections = collector.stats().count() - collections;
		assertThat(collections).as("collections in 300 requests").isBetween(3L, 17L);
		assertThat(store.droppedIncomplete()).isZero();
	}

	@Test
	void aLongSwitchOffDoesNotCountAsTheEnginesDeliveryLag() {
		SpanProfileStore store = new SpanProfileStore(StoreSettings.defaults());
		Collector collector = collector(store, this.clock::get);
		collector.collectNow();
		this.clock.addAndGet(3_000 * MS);
		collector.collectNow();
		long horizon = collector.stats().deliveryHorizonNanos();
		assertThat(horizon).isEqualTo(SETTINGS.minDeliveryHorizon().toNanos());
		// Switched off for twenty minutes, then on again.
		this.clock.addAndGet(Duration.ofMinutes(20).toNanos());
		collector.resumedAt(this.clock.get());
		this.clock.addAndGet(3_000 * MS);
		collector.collectNow();
		assertThat(collector.stats().deliveryHorizonNanos())
			.as("how far back change points are kept for the engine's promise")
			.isEqualTo(horizon);
	}

	private Collector collector(SpanProfileStore store, NanoClock clock) {
		// An engine that delivers nothing and promises every sample up to now.
		return collectorDumping(store, clock::nanoTime);
	}

	/** With an engine that delivers nothing and promises what {@code dump} returns. */
	private Collector collectorDumping(SpanProfileStore store, LongSupplier dump) {
		NanoClock clock = this.clock::get;
		SamplingEngine engine = new SamplingEngine() {

			@Override
			public String name() {
				return "stepped";
			}

			@Override
			public void start() {
			}

			@Override
			public long collect(SampleSink sink) {
				return dump.getAsLong();
			}

			@Override
			public String activeEvent() {
				return "cpu";
			}

			@Override
			public void close() {
			}

		};
		return new Collector(engine, new SampleAttributor(store), store, ActivationRecorder.global(), SETTINGS,
				() -> true, clock);
	}

	/** A request that ends now, on the spans' clock. */
	private void request(SpanProfileStore store) {
		String id = "r" + (this.sequence++);
		long end = MonotonicEpoch.toEpochNanos(this.clock.get());
		store.spanStarted(id, id, null, false, "GET /", "SERVER", end - 5 * MS, "main");
		store.spanEnded(id, "GET /", "OK", end, false);
	}

}
