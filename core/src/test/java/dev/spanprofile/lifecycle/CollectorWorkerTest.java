package dev.spanprofile.lifecycle;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.attribution.SampleAttributor;
import dev.spanprofile.sampling.JfrWaitEngine;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The collector as one worker: a reader that needs fresh data asks for a collection and
 * waits for it, and the collection (the engine's dump, the listeners of completed
 * requests) runs on the collector thread, never on the reader's. On a clock the test
 * steps: only the collections the test asks for run.
 */
class CollectorWorkerTest {

	private static final long MS = 1_000_000L;

	private static final CollectorSettings SETTINGS = CollectorSettings.forDumpInterval(Duration.ofSeconds(3));

	private final AtomicLong clock = new AtomicLong(System.nanoTime());

	/** The threads the engine was dumped on, one per collection. */
	private final List<String> dumpedOn = new CopyOnWriteArrayList<>();

	/** The threads requests were handed to the listeners on, one per request. */
	private final List<String> handedOnOn = new CopyOnWriteArrayList<>();

	private final SpanProfileStore store = new SpanProfileStore(
			new StoreSettings(100, Long.MAX_VALUE, false, RetentionSettings.recentOnly(), 100));

	private final Collector collector = collector();

	/** When set, a dump waits for it: a collection under way. */
	private volatile CountDownLatch dumpMayEnd;

	@AfterEach
	void stopCollector() {
		this.collector.stop();
	}

	@Test
	void aReaderWaitsForTheCollectorsCollectionInsteadOfRunningOne() {
		startCollector();
		request("a");
		this.collector.collectNow();
		// Returned once the collection it asked for ended: the request is handed on.
		assertThat(this.dumpedOn).containsExactly(JfrWaitEngine.COLLECTOR_THREAD);
		assertThat(this.handedOnOn).as("handed on by the collector, not the reader")
			.containsExactly(JfrWaitEngine.COLLECTOR_THREAD);
	}

	@Test
	void aFreshCollectionServesAReaderWithoutAnother() {
		startCollector();
		this.collector.collectNow();
		request("a");
		this.clock.addAndGet(SETTINGS.fresh().toNanos() - MS);
		this.collector.collectUnlessFresh();
		assertThat(this.dumpedOn).as("within the fresh window").hasSize(1);
		assertThat(this.handedOnOn).isEmpty();
		this.clock.addAndGet(MS);
		this.collector.collectUnlessFresh();
		assertThat(this.dumpedOn).containsExactly(JfrWaitEngine.COLLECTOR_THREAD, JfrWaitEngine.COLLECTOR_THREAD);
		assertThat(this.handedOnOn).containsExactly(JfrWaitEngine.COLLECTOR_THREAD);
	}

	@Test
	void aReaderFindingACollectionUnderWayWaitsForItInsteadOfAskingForAnother() throws Exception {
		startCollector();
		this.dumpMayEnd = new CountDownLatch(1);
		Thread asking = new Thread(this.collector::collectNow);
		asking.start();
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (this.dumpedOn.isEmpty() && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		assertThat(this.dumpedOn).as("the collector is dumping").hasSize(1);
		Thread reader = new Thread(this.collector::collectUnlessFresh);
		reader.start();
		reader.join(200);
		assertThat(reader.isAlive()).as("waits for the collection under way").isTrue();
		this.dumpMayEnd.countDown();
		reader.join(10_000);
		asking.join(10_000);
		assertThat(reader.isAlive()).isFalse();
		assertThat(this.dumpedOn).as("no second collection for the reader").hasSize(1);
	}

	@Test
	void withoutACollectorThreadTheCallerCollects() {
		// As stop() does, once the collector thread is gone.
		request("a");
		this.collector.collectNow();
		assertThat(this.dumpedOn).containsExactly(Thread.currentThread().getName());
		assertThat(this.handedOnOn).containsExactly(Thread.currentThread().getName());
	}

	@Test
	void aListenerAskingForACollectionDuringAHandOffGetsNoNestedOne() {
		// A listener that reads fresh data (as a view would) while requests are handed
		// on.
		this.store.onRequestComplete((root) -> this.collector.collectNow());
		request("a");
		request("b");
		this.collector.collectNow();
		assertThat(this.dumpedOn).as("one collection, none nested in its hand-off").hasSize(1);
		assertThat(this.handedOnOn).as("each request handed on once").hasSize(2);
	}

	private void startCollector() {
		// Its own pace on real time; on the stepped clock nothing falls due by itself
		// once sampling has (re)started.
		this.collector.resumedAt(this.clock.get());
		this.collector.start();
	}

	/** A request that ends now, on the spans' clock. */
	private void request(String id) {
		long end = MonotonicEpoch.toEpochNanos(this.clock.get());
		this.store.spanStarted(id, id, null, false, "GET /", "SERVER", end - 5 * MS, "main");
		this.store.spanEnded(id, "GET /", "OK", end, false);
	}

	private Collector collector() {
		this.store.onRequestComplete((root) -> this.handedOnOn.add(Thread.currentThread().getName()));
		// An engine that delivers nothing and promises every sample up to now.
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
				CollectorWorkerTest.this.dumpedOn.add(Thread.currentThread().getName());
				CountDownLatch mayEnd = CollectorWorkerTest.this.dumpMayEnd;
				if (mayEnd != null) {
					try {
						mayEnd.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return CollectorWorkerTest.this.clock.get();
			}

			@Override
			public String activeEvent() {
				return "cpu";
			}

			@Override
			public void close() {
			}

		};
		return new Collector(engine, new SampleAttributor(this.store), this.store, ActivationRecorder.global(),
				SETTINGS, () -> true, this.clock::get);
	}

}
