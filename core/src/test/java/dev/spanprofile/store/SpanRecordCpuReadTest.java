package dev.spanprofile.store;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A view reads a request's measured CPU while the collector closes its stretches: it sees
 * the request incomplete, or complete with every stretch's time, never complete without
 * the last one's (review 2026-12: the count of open stretches went down before the time
 * was added).
 */
class SpanRecordCpuReadTest {

	private static final String TRACE = "0123456789abcdef0123456789abcdef";

	private static volatile SpanRecord current;

	@Test
	void aRequestSeenCompleteHasEveryStretchsTime() throws InterruptedException {
		long deadline = System.nanoTime() + 1_000_000_000L;
		AtomicLong complete = new AtomicLong();
		AtomicLong torn = new AtomicLong();
		Thread view = new Thread(() -> {
			while (System.nanoTime() < deadline) {
				SpanRecord request = current;
				long nanos = (request != null) ? request.measuredCpu().nanosIfComplete() : -1;
				if (nanos >= 0) {
					complete.incrementAndGet();
					if (nanos != 12) {
						torn.incrementAndGet();
					}
				}
			}
		});
		view.start();
		while (System.nanoTime() < deadline) {
			// Two threads of one request leave it: 5 ns and 7 ns of CPU.
			SpanRecord request = new SpanRecord(TRACE, "00000000000000a1", null, null, "work", "SERVER", 1, "worker",
					new AtomicLong());
			request.measureCpu(SpanCpuTime.Measured::stretchOpened);
			request.measureCpu(SpanCpuTime.Measured::stretchOpened);
			current = request;
			request.measureCpu((figures) -> figures.stretchClosed(5, 1, 10));
			request.measureCpu((figures) -> figures.stretchClosed(7, 1, 10));
		}
		view.join();
		assertThat(complete.get()).as("reads of a complete request").isPositive();
		assertThat(torn.get()).as("of %d reads of a complete request, those without its last stretch", complete.get())
			.isZero();
	}

}
