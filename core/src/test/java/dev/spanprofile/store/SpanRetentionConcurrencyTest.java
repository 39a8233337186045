package dev.spanprofile.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests end on many threads while others start and force evictions: a request is never
 * evicted while it is kept, and the bounds hold.
 */
class SpanRetentionConcurrencyTest {

	private static final long MS = 1_000_000L;

	@Test
	void keptRequestsAreNeverEvictedAndBoundsHoldUnderConcurrentLoad() throws Exception {
		AtomicLong clock = new AtomicLong(1_000_000 * MS);
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(100, Long.MAX_VALUE, true, new RetentionSettings(3, Duration.ofSeconds(30), 10, 20)),
				clock::get);
		ConcurrentLinkedQueue<SpanRecord> all = new ConcurrentLinkedQueue<>();
		int threads = 4;
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> workers = new ArrayList<>();
		AtomicLong ids = new AtomicLong();
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				try {
					start.await();
				}
				catch (InterruptedException ex) {
					return;
				}
				ThreadLocalRandom random = ThreadLocalRandom.current();
				try {
					for (int round = 0; round < 300; round++) {
						// A long request starts first, so it is among the oldest when it
						// ends: the first one eviction would take, while it is being
						// judged worth keeping.
						String longId = Long.toString(ids.incrementAndGet());
						String longName = "GET /n" + random.nextInt(15);
						all.add(store.spanStarted(longId, longId, null, false, longName, "SERVER", clock.get(), "w"));
						for (int i = 0; i < 120; i++) {
							String id = Long.toString(ids.incrementAndGet());
							long end = clock.addAndGet(MS);
							String name = "GET /n" + random.nextInt(15);
							SpanRecord record = store.spanStarted(id, id, null, false, name, "SERVER",
									end - random.nextLong(1, 50) * MS, "w");
							all.add(record);
							store.spanEnded(id, name, (random.nextInt(10) == 0) ? "ERROR" : "OK", end, false);
						}
						store.spanEnded(longId, longName, "ERROR", clock.addAndGet(MS), false);
					}
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
			});
			worker.start();
			workers.add(worker);
		}
		start.countDown();
		for (Thread worker : workers) {
			worker.join();
		}
		assertThat(failures).isEmpty();
		store.evictIfNeeded();
		assertThat(store.size()).isLessThanOrEqualTo(100);
		// (10 names + other) x 3 slowest + 20 errors, and at most half of the spans.
		assertThat(store.protectedCount()).isBetween(1, 50);
		int kept = 0;
		for (SpanRecord record : all) {
			if (record.retainedAs() != RetainedAs.RECENT) {
				kept++;
				assertThat(store.find(record.spanId())).as("kept request %s stored", record.spanId()).isSameAs(record);
			}
		}
		assertThat(kept).isEqualTo(store.protectedCount());
	}

}
