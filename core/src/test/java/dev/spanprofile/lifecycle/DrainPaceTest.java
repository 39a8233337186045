package dev.spanprofile.lifecycle;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DrainPaceTest {

	private static final long LONG_AGO = TimeUnit.SECONDS.toNanos(3);

	private static final long MS_100 = TimeUnit.MILLISECONDS.toNanos(100);

	private static final CollectorSettings SETTINGS = CollectorSettings.forDumpInterval(Duration.ofSeconds(3));

	private static final long QUICKEST_MILLIS = SETTINGS.quickestDrain().toMillis();

	private static final long SLOWEST_MILLIS = SETTINGS.slowestDrain().toMillis();

	private final DrainPace stateless = new DrainPace(SETTINGS, 0);

	@Test
	void nothingToDrainWaitsTheLongest() {
		assertThat(this.stateless.nextMillis(0, MS_100, 0, false, LONG_AGO)).isEqualTo(SLOWEST_MILLIS);
	}

	@Test
	void aimsToFindTheFullestRingAQuarterFull() {
		// An eighth of a ring in 100 ms: a quarter in 200 ms.
		assertThat(this.stateless.nextMillis(0.125, MS_100, 0, false, LONG_AGO)).isEqualTo(200);
		// Rings filling four times faster than that: as quick as it goes.
		assertThat(this.stateless.nextMillis(0.5, MS_100, 0, false, LONG_AGO)).isEqualTo(QUICKEST_MILLIS);
		// A lap (more than the ring since the last drain) too.
		assertThat(this.stateless.nextMillis(1.5, MS_100, 0, false, LONG_AGO)).isEqualTo(QUICKEST_MILLIS);
		// Hardly anything: no slower than the slowest.
		assertThat(this.stateless.nextMillis(0.001, MS_100, 0, false, LONG_AGO)).isEqualTo(SLOWEST_MILLIS);
	}

	@Test
	void theWaitCountsFromTheLastDrain() {
		long ms30 = TimeUnit.MILLISECONDS.toNanos(30);
		assertThat(this.stateless.nextMillis(0.125, MS_100, ms30, false, LONG_AGO)).isEqualTo(170);
		assertThat(this.stateless.nextMillis(0, MS_100, LONG_AGO, false, LONG_AGO)).as("overdue").isEqualTo(1);
	}

	@Test
	void requestsWaitingForACollectionKeepTheQuickestPace() {
		assertThat(this.stateless.nextMillis(0, MS_100, 0, true, LONG_AGO)).isEqualTo(QUICKEST_MILLIS);
	}

	@Test
	void aCollectionDueSoonerCutsTheWaitShort() {
		assertThat(this.stateless.nextMillis(0, MS_100, 0, false, TimeUnit.MILLISECONDS.toNanos(30))).isEqualTo(31);
		assertThat(this.stateless.nextMillis(0, MS_100, 0, false, -5)).as("overdue").isEqualTo(1);
	}

	/**
	 * As the collector uses it: told of each drain as it starts, asked right after. The
	 * rate is the last drain's fill over the stretch it covered, not over the moment
	 * since it (which paced every drain that found anything at the quickest).
	 */
	@Test
	void pacesByWhatTheLastDrainFoundOverTheStretchItCovered() {
		DrainPace pace = new DrainPace(SETTINGS, 0);
		assertThat(pace.nextMillis(MS_100, false, LONG_AGO)).as("nothing drained yet").isEqualTo(SLOWEST_MILLIS - 100);
		// A drain 100 ms in finds an eighth of a ring: a quarter takes 200 ms from it.
		pace.drained(MS_100, 0.125);
		assertThat(pace.nextMillis(MS_100 + TimeUnit.MILLISECONDS.toNanos(1), false, LONG_AGO)).isEqualTo(199);
		// One 10 ms later (a collection's second drain) finds a tenth of that: the
		// same rate, the same pace.
		long second = MS_100 + TimeUnit.MILLISECONDS.toNanos(10);
		pace.drained(second, 0.0125);
		assertThat(pace.nextMillis(second, false, LONG_AGO)).isEqualTo(200);
		// And one 400 µs later, with a two-hundredth of that: still the same rate,
		// though the stretch is under a millisecond.
		long third = second + TimeUnit.MICROSECONDS.toNanos(400);
		pace.drained(third, 0.0005);
		assertThat(pace.nextMillis(third, false, LONG_AGO)).isEqualTo(200);
	}

}
