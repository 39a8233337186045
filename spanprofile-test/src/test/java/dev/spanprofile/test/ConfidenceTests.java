package dev.spanprofile.test;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The ranges profile assertions decide on: Wilson's interval for shares, a score interval
 * for Poisson counts.
 */
class ConfidenceTests {

	@Test
	void aShareRangeNarrowsWithTheSamplesAndStaysWithinZeroAndOne() {
		Confidence few = Confidence.ofShare(9, 10);
		Confidence many = Confidence.ofShare(900, 1000);
		assertThat(few.low()).isLessThan(many.low());
		assertThat(few.high()).isGreaterThan(many.high());
		// 900 of 1000 at z = 3.29: 0.90 ± about 3.29 × 0.0095.
		assertThat(many.low()).isCloseTo(0.866, within(0.005));
		assertThat(many.high()).isCloseTo(0.926, within(0.005));
		assertThat(Confidence.ofShare(0, 50).low()).isZero();
		assertThat(Confidence.ofShare(50, 50).high()).isEqualTo(1.0);
		assertThat(Confidence.ofShare(0, 0)).isEqualTo(new Confidence(0, 1));
	}

	@Test
	void allSamplesUnderAFrameStillLeaveRoomBelowOneWhenThereAreFew() {
		// 12 of 12 would pass "at least 0.5" but not "at least 0.6": 12 samples cannot
		// tell 0.6 from 0.55.
		Confidence twelve = Confidence.ofShare(12, 12);
		assertThat(twelve.atLeast(0.5)).isTrue();
		assertThat(twelve.atLeast(0.6)).isFalse();
	}

	@Test
	void aCountRangeCoversTheCountItCameFrom() {
		Confidence count = Confidence.ofCount(512);
		assertThat(count.low()).isCloseTo(512 + 5.41 - 3.2905 * Math.sqrt(512 + 2.71), within(0.1));
		assertThat(count.high()).isCloseTo(512 + 5.41 + 3.2905 * Math.sqrt(512 + 2.71), within(0.1));
		assertThat(Confidence.ofCount(0).low()).isZero();
		assertThat(Confidence.ofCount(0).high()).isCloseTo(10.8, within(0.1));
		assertThat(count.times(2).high()).isEqualTo(2 * count.high());
	}

}
