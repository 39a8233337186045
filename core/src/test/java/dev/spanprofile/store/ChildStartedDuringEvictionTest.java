package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests start children while the store, full of requests in flight, drops them: a
 * child that starts as its parent's request goes must go with it (or stand as a request
 * of its own), never stay behind where no eviction reaches it and count against the
 * bounds for good.
 */
class ChildStartedDuringEvictionTest {

	private static final int MAX_SPANS = 4;

	@Test
	void childrenStartedWhileTheirRequestIsDroppedDoNotOutliveIt() throws Exception {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(MAX_SPANS, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));
		AtomicLong clock = new AtomicLong(1);
		AtomicInteger ids = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		List<Thread> requests = new ArrayList<>();
		for (int t = 0; t < 3; t++) {
			Thread thread = new Thread(() -> {
				try {
					start.await();
					// Always over twice the limit: every start drops the oldest requests,
					// running or not, so parents go while their children start.
					for (int i = 0; i < 50_000; i++) {
						String root = "r" + ids.incrementAndGet();
						store.spanStarted(root, root, null, false, "GET /", "SERVER", clock.incrementAndGet(), "w");
						for (int c = 0; c < 4; c++) {
							String child = root + "-c" + c;
							store.spanStarted(root, child, root, true, "query", "CLIENT", clock.incrementAndGet(), "w");
							store.spanEnded(child, "query", "OK", clock.incrementAndGet(), false);
						}
						store.spanEnded(root, "GET /", "OK", clock.incrementAndGet(), false);
					}
				}
				catch (Throwable ex) {
					failures.add(ex);
				}
			});
			thread.start();
			requests.add(thread);
		}
		start.countDown();
		for (Thread thread : requests) {
			thread.join();
		}
		assertThat(failures).isEmpty();

		// Later requests push every earlier one out: nothing of those may be left.
		for (int i = 0; i < 10 * MAX_SPANS; i++) {
			String root = "later" + i;
			store.spanStarted(root, root, null, false, "GET /later", "SERVER", clock.incrementAndGet(), "w");
			store.spanEnded(root, "GET /later", "OK", clock.incrementAndGet(), false);
		}
		List<String> left = new ArrayList<>();
		store.recent((span) -> !span.name().equals("GET /later"), Integer.MAX_VALUE)
			.forEach((span) -> left.add(span.spanId()));
		assertThat(left).as("spans of earlier requests still stored").isEmpty();
		assertThat(store.size()).as("stored spans").isEqualTo(MAX_SPANS);
	}

}
