package dev.spanprofile.sampling;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule both async-profiler readers (the engine's and the Pyroscope agent's) weigh a
 * recorded lock wait by.
 */
class LockWaitWeightTest {

	private static final long INTERVAL = 10_000_000;

	@Test
	void aWaitShorterThanTheIntervalStandsForTheInterval() {
		assertThat(LockWaitWeight.of(2_500_000, INTERVAL)).isEqualTo(INTERVAL);
	}

	@Test
	void aWaitLongerThanTheIntervalWeighsItsLength() {
		assertThat(LockWaitWeight.of(37_000_000, INTERVAL)).isEqualTo(37_000_000);
	}

	@Test
	void withoutAnIntervalEveryWaitWeighsItsLengthAndAtLeastOne() {
		assertThat(LockWaitWeight.of(2_500_000, 0)).isEqualTo(2_500_000);
		assertThat(LockWaitWeight.of(0, 0)).isEqualTo(1);
	}

}
