package dev.spanprofile.lifecycle;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a collection is due, on a clock the test sets: an interval after the last one;
 * sooner when, at the rate requests came to await their samples since the last one, the
 * room left for them would fill within 200 ms; never within the fresh window nor after a
 * collection that did not move the watermark on; a second after a slow request ends,
 * until the watermark covers it. What the collector does at those times is
 * {@code EarlyCollectionTest}'s.
 */
class CollectionScheduleTest {

	private static final long MS = 1_000_000L;

	/** Far from 0, and negative, as {@link System#nanoTime()} may be. */
	private static final long T0 = -5_000 * MS;

	private static final int ROOM = 1000;

	private final CollectionSchedule schedule = new CollectionSchedule(
			CollectorSettings.forDumpInterval(Duration.ofSeconds(1)));

	@Test
	void aCollectionIsDueAnIntervalAfterTheLastOneStarted() {
		this.schedule.started(T0);
		assertThat(this.schedule.due(T0 + 999 * MS, 0, ROOM)).isFalse();
		assertThat(this.schedule.due(T0 + 1_000 * MS, 0, ROOM)).isTrue();
		this.schedule.started(T0 + 1_000 * MS);
		assertThat(this.schedule.due(T0 + 1_500 * MS, 0, ROOM)).isFalse();
	}

	@Test
	void requestsThatWouldFillTheRoomWithin200MillisecondsBringItForward() {
		this.schedule.started(T0);
		// 600 in 300 ms: 400 more in the next 200 ms would fill the room.
		assertThat(this.schedule.due(T0 + 300 * MS, 599, ROOM)).isFalse();
		assertThat(this.schedule.due(T0 + 300 * MS, 600, ROOM)).isTrue();
		// A room that holds an interval's worth at this rate (800 a second) never does:
		// at 0.9 s 720 wait, and the 160 of the next 200 ms leave room.
		assertThat(this.schedule.due(T0 + 900 * MS, 720, ROOM)).isFalse();
		// Full already, or over: due.
		assertThat(this.schedule.due(T0 + 250 * MS, ROOM, ROOM)).isTrue();
		assertThat(this.schedule.due(T0 + 250 * MS, ROOM + 5, ROOM)).isTrue();
	}

	@Test
	void notWithinTheFreshWindowNorWithNothingAwaiting() {
		this.schedule.started(T0);
		assertThat(this.schedule.due(T0 + 199 * MS, ROOM, ROOM)).isFalse();
		assertThat(this.schedule.due(T0 + 200 * MS, ROOM, ROOM)).isTrue();
		assertThat(this.schedule.due(T0 + 500 * MS, 0, 0)).isFalse();
	}

	@Test
	void aCollectionThatDidNotMoveTheWatermarkOnIsNotBroughtForward() {
		this.schedule.started(T0);
		this.schedule.ended(false);
		assertThat(this.schedule.due(T0 + 500 * MS, ROOM, ROOM)).isFalse();
		// The interval still holds, and one that moves it on restores the early ones.
		assertThat(this.schedule.due(T0 + 1_000 * MS, ROOM, ROOM)).isTrue();
		this.schedule.started(T0 + 1_000 * MS);
		this.schedule.ended(true);
		assertThat(this.schedule.due(T0 + 1_300 * MS, ROOM, ROOM)).isTrue();
	}

	@Test
	void aReaderFindsTheLastCollectionFreshFor200Milliseconds() {
		this.schedule.started(T0);
		assertThat(this.schedule.fresh(T0)).isTrue();
		assertThat(this.schedule.fresh(T0 + 199 * MS)).isTrue();
		assertThat(this.schedule.fresh(T0 + 200 * MS)).isFalse();
	}

	@Test
	void aSlowRequestBringsItForwardASecondAfterItEndsUntilTheWatermarkCoversIt() {
		this.schedule.started(T0);
		long watermark = T0 - 500 * MS;
		assertThat(this.schedule.dueForSlowRequest(T0 + 100 * MS, CollectionSchedule.NO_SLOW_REQUEST, watermark))
			.as("none ended")
			.isFalse();
		long end = T0 + 100 * MS;
		assertThat(this.schedule.dueForSlowRequest(T0 + 150 * MS, end, watermark)).isFalse();
		// A later slow request does not put the first one off.
		assertThat(this.schedule.dueForSlowRequest(T0 + 700 * MS, T0 + 650 * MS, watermark)).isFalse();
		assertThat(this.schedule.dueForSlowRequest(T0 + 1_099 * MS, T0 + 650 * MS, watermark)).isFalse();
		assertThat(this.schedule.dueForSlowRequest(T0 + 1_100 * MS, T0 + 650 * MS, watermark)).isTrue();
		// Collected, but its waits were not in yet: again, after the fresh window.
		this.schedule.started(T0 + 1_100 * MS);
		this.schedule.ended(true);
		watermark = T0 + 80 * MS;
		assertThat(this.schedule.dueForSlowRequest(T0 + 1_299 * MS, T0 + 650 * MS, watermark)).isFalse();
		assertThat(this.schedule.dueForSlowRequest(T0 + 1_300 * MS, T0 + 650 * MS, watermark)).isTrue();
		// Covered up to the second one: nothing more.
		this.schedule.started(T0 + 1_300 * MS);
		watermark = T0 + 650 * MS;
		assertThat(this.schedule.dueForSlowRequest(T0 + 2_000 * MS, T0 + 650 * MS, watermark)).isFalse();
		// The next slow request counts from its own end.
		assertThat(this.schedule.dueForSlowRequest(T0 + 2_000 * MS, T0 + 1_900 * MS, watermark)).isFalse();
		assertThat(this.schedule.dueForSlowRequest(T0 + 2_900 * MS, T0 + 1_900 * MS, watermark)).isTrue();
	}

	@Test
	void aSlowRequestDoesNotBringItForwardAfterACollectionThatDidNotMoveTheWatermarkOn() {
		this.schedule.started(T0);
		this.schedule.ended(false);
		assertThat(this.schedule.dueForSlowRequest(T0 + 2_000 * MS, T0 + 100 * MS, T0 - 500 * MS)).isFalse();
	}

}
