package dev.spanprofile.lifecycle;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DrainPaceTest {

	private static final long LONG_AGO = TimeUnit.SECONDS.toNanos(3);

	private static final long MS_100 = TimeUnit.MILLISECONDS.toNanos(100);

	@Test
	void nothingToDrainWaitsTheLongest() {
		assertThat(DrainPace.nextMillis(0, MS_100, false, LONG_AGO)).isEqualTo(DrainPace.SLOWEST_MILLIS);
	}

	@Test
	void aimsToFindTheFullestRingAQuarterFull() {
		// An eighth of a ring in 100 ms: a quarter in 200 ms.
		assertThat(DrainPace.nextMillis(0.125, MS_100, false, LONG_AGO)).isEqualTo(200);
		// Rings filling four times faster than that: as quick as it goes.
		assertThat(DrainPace.nextMillis(0.5, MS_100, false, LONG_AGO)).isEqualTo(DrainPace.QUICKEST_MILLIS);
		// A lap (more than the ring since the last drain) too.
		assertThat(DrainPace.nextMillis(1.5, MS_100, false, LONG_AGO)).isEqualTo(DrainPace.QUICKEST_MILLIS);
		// Hardly anything: no slower than the slowest.
		assertThat(DrainPace.nextMillis(0.001, MS_100, false, LONG_AGO)).isEqualTo(DrainPace.SLOWEST_MILLIS);
	}

	@Test
	void requestsWaitingForACollectionKeepTheQuickestPace() {
		assertThat(DrainPace.nextMillis(0, MS_100, true, LONG_AGO)).isEqualTo(DrainPace.QUICKEST_MILLIS);
	}

	@Test
	void aCollectionDueSoonerCutsTheWaitShort() {
		assertThat(DrainPace.nextMillis(0, MS_100, false, TimeUnit.MILLISECONDS.toNanos(30))).isEqualTo(31);
		assertThat(DrainPace.nextMillis(0, MS_100, false, -5)).as("overdue").isEqualTo(1);
	}

}
