package dev.spanprofile.tracking;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MonotonicEpochTest {

	/**
	 * The wall clock runs 1,000,000 s ahead of the monotonic one; each wall read is the
	 * true instant of the read.
	 */
	private static final long OFFSET = 1_000_000_000_000_000L;

	@Test
	void aPairingTakenApartByTheSchedulerIsReadAgain() {
		// First try: descheduled for 5 ms after the wall read. Second try: 200 ns between
		// the monotonic reads.
		ScriptedClocks clocks = new ScriptedClocks(List.of(100_000L, 5_100_100L, 6_000_000L, 6_000_200L),
				List.of(100_050L, 6_000_100L));
		MonotonicEpoch.Anchor anchor = MonotonicEpoch.Anchor.bracketed(clocks::nanoTime, clocks::wall);
		// The second pairing's wall read happened at monotonic 6,000,100; the midpoint of
		// its bracket is that.
		assertThat(anchor.toNanoTime(OFFSET + 6_000_100L)).isEqualTo(6_000_100L);
		assertThat(clocks.wallReads.get()).isEqualTo(2);
	}

	@Test
	void aTightPairingIsNotReadAgain() {
		ScriptedClocks clocks = new ScriptedClocks(List.of(100_000L, 100_120L), List.of(100_060L));
		MonotonicEpoch.Anchor anchor = MonotonicEpoch.Anchor.bracketed(clocks::nanoTime, clocks::wall);
		assertThat(anchor.toNanoTime(OFFSET + 100_060L)).isEqualTo(100_060L);
		assertThat(clocks.wallReads.get()).isEqualTo(1);
	}

	@Test
	void whenEveryPairingIsLooseTheTightestIsKept() {
		// Brackets of 3 ms, 1 ms and 2 ms: the second is kept, and its error is at most
		// half of it.
		ScriptedClocks clocks = new ScriptedClocks(
				List.of(0L, 3_000_000L, 4_000_000L, 5_000_000L, 6_000_000L, 8_000_000L),
				List.of(2_900_000L, 4_100_000L, 6_100_000L));
		MonotonicEpoch.Anchor anchor = MonotonicEpoch.Anchor.bracketed(clocks::nanoTime, clocks::wall);
		assertThat(clocks.wallReads.get()).isEqualTo(MonotonicEpoch.Anchor.PAIRING_TRIES);
		assertThat(anchor.toNanoTime(OFFSET + 4_100_000L)).isBetween(4_100_000L - 500_000L, 4_100_000L + 500_000L);
		// The wall read lay 0.4 ms before the kept bracket's midpoint.
		assertThat(anchor.toNanoTime(OFFSET + 4_100_000L)).isEqualTo(4_500_000L);
	}

	@Test
	void twoRealPairingsAgreeOnTheTimeBetweenThem() {
		MonotonicEpoch.Anchor first = MonotonicEpoch.Anchor.now();
		MonotonicEpoch.Anchor second = MonotonicEpoch.Anchor.now();
		long wallBetween = second.epochNanos() - first.epochNanos();
		long monotonicBetween = second.nanoTime() - first.nanoTime();
		// Two anchors read back to back agree on how far apart they are, unless the wall
		// clock is stepped meanwhile.
		assertThat(Math.abs(wallBetween - monotonicBetween)).isLessThan(50_000_000L);
	}

	/**
	 * Monotonic reads in the order given; a wall read returns the instant of its scripted
	 * monotonic time.
	 */
	private static final class ScriptedClocks {

		private final Deque<Long> nanos;

		private final Deque<Long> wallAtNanos;

		final AtomicInteger wallReads = new AtomicInteger();

		ScriptedClocks(List<Long> nanos, List<Long> wallAtNanos) {
			this.nanos = new ArrayDeque<>(nanos);
			this.wallAtNanos = new ArrayDeque<>(wallAtNanos);
		}

		long nanoTime() {
			return this.nanos.removeFirst();
		}

		Instant wall() {
			this.wallReads.incrementAndGet();
			long epochNanos = OFFSET + this.wallAtNanos.removeFirst();
			return Instant.ofEpochSecond(epochNanos / 1_000_000_000L, epochNanos % 1_000_000_000L);
		}

	}

}
