package dev.spanprofile.tracking;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One writer lapping a tiny ring while the collector drains it: every (time, span) pair
 * drained must be one the writer recorded, never the time of one entry with the span of
 * another.
 */
class ThreadActivityRaceTest {

	private static final int CAPACITY = 4;

	/**
	 * Distinct span objects; the writer pairs time t with SPANS[t % SPANS.length], so a
	 * torn pair is visible.
	 */
	private static final Object[] SPANS = new Object[61];

	static {
		for (int i = 0; i < SPANS.length; i++) {
			SPANS[i] = "span-" + i;
		}
	}

	@Test
	void aDrainedPairIsAlwaysOneThatWasWritten() throws Exception {
		AtomicBoolean done = new AtomicBoolean();
		AtomicReference<ThreadActivity> ring = new AtomicReference<>();
		Checker checker = new Checker();
		Thread writer = new Thread(() -> {
			ThreadActivity activity = new ThreadActivity(Thread.currentThread(), CAPACITY);
			ring.set(activity);
			// Until the reader has drained enough to have overlapped many overwrites (the
			// writer laps the tiny ring all the time), however the two threads get
			// scheduled on a busy machine; bounded all the same.
			for (long time = 1; time <= 400_000_000L && checker.pairs.get() < 100_000; time++) {
				activity.record(time, SPANS[(int) (time % SPANS.length)], -1, -1, 0);
			}
			done.set(true);
		}, "ring-writer");
		writer.start();
		while (ring.get() == null) {
			Thread.onSpinWait();
		}
		while (!done.get()) {
			ring.get().drainTo(checker);
		}
		ring.get().drainTo(checker);
		writer.join();
		System.out.printf("ring race: %d pairs drained, %d gaps, %d torn, %d out of order%n", checker.pairs.get(),
				checker.gaps.get(), checker.torn.get(), checker.outOfOrder.get());
		assertThat(checker.pairs.get()).as("pairs drained").isPositive();
		assertThat(checker.gaps.get()).as("laps reported as gaps (the ring is tiny, so the writer laps)").isPositive();
		assertThat(checker.torn.get()).as("pairs whose span is not the one written with their time").isZero();
		assertThat(checker.outOfOrder.get()).as("pairs not after the previous one").isZero();
	}

	private static final class Checker implements ThreadActivity.ChangePointSink {

		final AtomicLong pairs = new AtomicLong();

		final AtomicLong gaps = new AtomicLong();

		final AtomicLong torn = new AtomicLong();

		final AtomicLong outOfOrder = new AtomicLong();

		private long last;

		@Override
		public void changed(long threadId, long time, Object span) {
			this.pairs.incrementAndGet();
			if (time <= 0 || span != SPANS[(int) (time % SPANS.length)]) {
				this.torn.incrementAndGet();
			}
			if (time <= this.last) {
				this.outOfOrder.incrementAndGet();
			}
			this.last = time;
		}

		@Override
		public void gap(long threadId, long time) {
			this.gaps.incrementAndGet();
		}

	}

}
