package dev.spanprofile.lifecycle;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The collector's one deadline and its pace, on a clock the test steps: a collection is
 * due an interval after the last one; sooner for a reader (an atomic minimum), when at
 * the rate requests came to await their samples the room left would fill within 200 ms,
 * and a second after a slow request ends until the watermark covers it; the last two
 * never within the fresh window nor after a collection that did not move the watermark
 * on. Between collections it drains as seldom as the rings allow, never past the
 * deadline. Change points are kept for the engine's promise as far back as twice the
 * longest lag it has shown, within fixed bounds. What the collector does at those times
 * is {@code EarlyCollectionTest}'s.
 */
class CollectorClockTest {

	private static final long MS = 1_000_000L;

	private static final long SECOND = 1_000 * MS;

	/** Far from 0, and negative, as {@link System#nanoTime()} may be. */
	private static final long T0 = -5_000 * MS;

	private static final int ROOM = 1000;

	/** Before any collection: nothing is joined. */
	private static final long NOTHING_JOINED = Long.MIN_VALUE;

	private static final CollectorSettings SETTINGS = CollectorSettings.forDumpInterval(Duration.ofSeconds(1));

	private final AtomicLong now = new AtomicLong(T0);

	private CollectorClock clock = new CollectorClock(SETTINGS, this.now::get);

	@Test
	void aCollectionIsDueAnIntervalAfterTheLastOneStarted() {
		startedAt(0);
		assertThat(dueAt(999, 0, NOTHING_JOINED)).isFalse();
		assertThat(dueAt(1_000, 0, NOTHING_JOINED)).isTrue();
		startedAt(1_000);
		assertThat(dueAt(1_500, 0, NOTHING_JOINED)).isFalse();
	}

	@Test
	void aReaderBringsItForwardToItsDeadlineAndIsToldWhenThatCollectionEnded() {
		startedAt(0);
		this.now.set(T0 + 10 * MS);
		CompletableFuture<Void> first = this.clock.collectBy(T0 + 300 * MS);
		// An earlier deadline wins; a later one does not put it off.
		CompletableFuture<Void> second = this.clock.collectBy(T0 + 100 * MS);
		this.clock.collectBy(T0 + 900 * MS);
		assertThat(second).isSameAs(first);
		assertThat(dueAt(99, 0, NOTHING_JOINED)).isFalse();
		assertThat(dueAt(100, 0, NOTHING_JOINED)).as("not held back by the fresh window").isTrue();
		CompletableFuture<Void> ended = this.clock.started(T0 + 100 * MS);
		assertThat(ended).isSameAs(first).isNotDone();
		// The next collection has no reader's deadline: the interval again.
		assertThat(dueAt(1_099, 0, NOTHING_JOINED)).isFalse();
		assertThat(this.clock.collectBy(T0 + 200 * MS)).as("a later reader waits for the next one").isNotSameAs(first);
	}

	@Test
	void requestsThatWouldFillTheRoomWithin200MillisecondsBringItForward() {
		startedAt(0);
		// 600 in 300 ms: 400 more in the next 200 ms would fill the room.
		assertThat(dueAt(300, 599, NOTHING_JOINED)).isFalse();
		assertThat(dueAt(300, 600, NOTHING_JOINED)).isTrue();
		// A room that holds an interval's worth at this rate (800 a second) never does:
		// at 0.9 s 720 wait, and the 160 of the next 200 ms leave room.
		assertThat(dueAt(900, 720, NOTHING_JOINED)).isFalse();
		// Full already, or over: due.
		assertThat(dueAt(250, ROOM, NOTHING_JOINED)).isTrue();
		assertThat(dueAt(250, ROOM + 5, NOTHING_JOINED)).isTrue();
	}

	/**
	 * The first request to await since the room emptied tells no rate: the next drain
	 * comes at the quickest pace, which tells one, rather than a slowest drain later,
	 * when the room may be past its deadline.
	 */
	@Test
	void theFirstRequestToAwaitHurriesTheNextDrain() {
		startedAt(0);
		this.clock.ended(true);
		this.clock.drained(T0 + 500 * MS, 0);
		assertThat(wakeAt(500, 0, NOTHING_JOINED)).isEqualTo(SETTINGS.slowestDrain().toMillis());
		requestsBeganAwaitingAt(510);
		assertThat(wakeAt(510, 1, NOTHING_JOINED)).isEqualTo(SETTINGS.quickestDrain().toMillis() - 10);
		// Still the one after that drain: no more came, the pace again.
		this.clock.drained(T0 + 550 * MS, 0);
		assertThat(wakeAt(550, 1, NOTHING_JOINED)).isEqualTo(SETTINGS.slowestDrain().toMillis());
	}

	/**
	 * A store drops its complete requests first after a collection: none awaits for a
	 * while, and a rate counted from the collection was too low by as much (here it would
	 * say 399 fill in 531 ms rather than 200).
	 */
	@Test
	void theRateCountsFromTheFirstRequestToAwaitSinceTheLastCollection() {
		startedAt(0);
		this.clock.ended(true);
		requestsBeganAwaitingAt(500);
		assertThat(dueAt(500, 1, NOTHING_JOINED)).as("one alone says no rate").isFalse();
		// 400 more in 200 ms: the 599 left fill in about 300 ms.
		assertThat(dueAt(700, 401, NOTHING_JOINED)).isFalse();
		// 600 in 300 ms: the 399 left fill within 200 ms.
		assertThat(dueAt(800, 601, NOTHING_JOINED)).isTrue();
		// Some awaited from before the collection: from the collection, as they may have
		// come since it.
		startedAt(1_000);
		assertThat(dueAt(1_300, 599, NOTHING_JOINED)).isFalse();
		assertThat(dueAt(1_300, 600, NOTHING_JOINED)).isTrue();
	}

	/**
	 * The margin is the time to notice; the collection's own time to empty the room comes
	 * on top: one that took 300 ms on a loaded machine brings the next 300 ms further
	 * forward, and the next few by half as much each.
	 */
	@Test
	void aCollectionThatTookLongBringsTheNextForwardByAsMuch() {
		startedAt(0);
		endedAt(300);
		// 500 in 500 ms fill the 500 left in 500 ms: within the margin and the 300 ms.
		assertThat(dueAt(500, 499, NOTHING_JOINED)).isFalse();
		assertThat(dueAt(500, 500, NOTHING_JOINED)).isTrue();
		// A quick one after it: half the 300 ms still counts, 350 ms in all.
		startedAt(1_000);
		endedAt(1_010);
		assertThat(dueAt(1_500, 588, NOTHING_JOINED)).isFalse();
		assertThat(dueAt(1_500, 589, NOTHING_JOINED)).isTrue();
	}

	@Test
	void notWithinTheFreshWindowNorWithNothingAwaiting() {
		startedAt(0);
		assertThat(dueAt(199, ROOM, NOTHING_JOINED)).isFalse();
		assertThat(dueAt(200, ROOM, NOTHING_JOINED)).isTrue();
		assertThat(dueAt(500, 0, NOTHING_JOINED)).isFalse();
	}

	@Test
	void aCollectionThatDidNotMoveTheWatermarkOnIsNotBroughtForward() {
		startedAt(0);
		this.clock.ended(false);
		assertThat(dueAt(500, ROOM, NOTHING_JOINED)).isFalse();
		// The interval still holds, and one that moves it on restores the early ones.
		assertThat(dueAt(1_000, ROOM, NOTHING_JOINED)).isTrue();
		startedAt(1_000);
		this.clock.ended(true);
		assertThat(dueAt(1_300, ROOM, NOTHING_JOINED)).isTrue();
	}

	@Test
	void aReaderFindsTheLastCollectionFreshFor200Milliseconds() {
		startedAt(0);
		assertThat(this.clock.fresh()).isTrue();
		this.now.set(T0 + 199 * MS);
		assertThat(this.clock.fresh()).isTrue();
		this.now.set(T0 + 200 * MS);
		assertThat(this.clock.fresh()).isFalse();
	}

	@Test
	void aSlowRequestBringsItForwardASecondAfterItEndsUntilTheWatermarkCoversIt() {
		// An interval long enough not to be due first.
		this.clock = new CollectorClock(CollectorSettings.forDumpInterval(Duration.ofSeconds(5)), this.now::get);
		startedAt(0);
		long watermark = T0 - 500 * MS;
		assertThat(dueAt(100, 0, watermark)).as("none ended").isFalse();
		slowRequestEndedAt(100);
		assertThat(dueAt(150, 0, watermark)).isFalse();
		// A later slow request does not put the first one off.
		slowRequestEndedAt(650);
		assertThat(dueAt(700, 0, watermark)).isFalse();
		assertThat(dueAt(1_099, 0, watermark)).isFalse();
		assertThat(dueAt(1_100, 0, watermark)).isTrue();
		// Collected, but its waits were not in yet: again, after the fresh window.
		startedAt(1_100);
		this.clock.ended(true);
		watermark = T0 + 80 * MS;
		assertThat(dueAt(1_299, 0, watermark)).isFalse();
		assertThat(dueAt(1_300, 0, watermark)).isTrue();
		// Covered up to the second one: nothing more.
		startedAt(1_300);
		watermark = T0 + 650 * MS;
		assertThat(dueAt(2_000, 0, watermark)).isFalse();
		// The next slow request counts from its own end.
		slowRequestEndedAt(1_900);
		assertThat(dueAt(2_000, 0, watermark)).isFalse();
		assertThat(dueAt(2_899, 0, watermark)).isFalse();
		assertThat(dueAt(2_900, 0, watermark)).isTrue();
	}

	@Test
	void aSlowRequestDoesNotBringItForwardAfterACollectionThatDidNotMoveTheWatermarkOn() {
		startedAt(0);
		this.clock.ended(false);
		slowRequestEndedAt(100);
		assertThat(dueAt(999, 0, T0 - 500 * MS)).isFalse();
	}

	@Test
	void nothingToDrainWaitsTheLongest() {
		startedAt(0);
		this.clock.drained(T0, 0);
		assertThat(wakeAt(0, 0, NOTHING_JOINED)).isEqualTo(SETTINGS.slowestDrain().toMillis());
	}

	@Test
	void aimsToFindTheFullestRingAQuarterFull() {
		startedAt(0);
		// An eighth of a ring in 100 ms: a quarter in 200 ms.
		this.clock.drained(T0 + 100 * MS, 0.125);
		assertThat(wakeAt(100, 0, NOTHING_JOINED)).isEqualTo(200);
		// The wait counts from the last drain.
		assertThat(wakeAt(130, 0, NOTHING_JOINED)).isEqualTo(170);
		// Rings filling four times faster than that: as quick as it goes.
		this.clock.drained(T0 + 200 * MS, 0.5);
		assertThat(wakeAt(200, 0, NOTHING_JOINED)).isEqualTo(SETTINGS.quickestDrain().toMillis());
		// Hardly anything: no slower than the slowest.
		this.clock.drained(T0 + 300 * MS, 0.001);
		assertThat(wakeAt(300, 0, NOTHING_JOINED)).isEqualTo(SETTINGS.slowestDrain().toMillis());
		// Overdue: at once.
		assertThat(wakeAt(590, 0, NOTHING_JOINED)).isEqualTo(1);
	}

	/**
	 * The rate is the last drain's fill over the stretch it covered, not over the moment
	 * since it (which paced every drain that found anything at the quickest).
	 */
	@Test
	void pacesByWhatTheLastDrainFoundOverTheStretchItCovered() {
		startedAt(0);
		this.clock.drained(T0, 0);
		this.clock.drained(T0 + 100 * MS, 0.125);
		// One 10 ms later (a collection's second drain) finds a tenth of that: the same
		// rate, the same pace.
		this.clock.drained(T0 + 110 * MS, 0.0125);
		assertThat(wakeAt(110, 0, NOTHING_JOINED)).isEqualTo(200);
	}

	@Test
	void neverSleepsPastTheDeadline() {
		startedAt(0);
		this.clock.drained(T0 + 900 * MS, 0);
		assertThat(wakeAt(970, 0, NOTHING_JOINED)).as("the interval's").isEqualTo(31);
		this.now.set(T0 + 950 * MS);
		this.clock.collectBy(T0 + 960 * MS);
		assertThat(wakeAt(950, 0, NOTHING_JOINED)).as("a reader's").isEqualTo(11);
	}

	/**
	 * A slow request waiting for its line wakes the collector at its deadline (here the
	 * end of the fresh window after a collection that did not cover it), not at every
	 * quickest drain until then.
	 */
	@Test
	void aSlowRequestIsWaitedForByItsDeadlineNotByHurriedDrains() {
		startedAt(0);
		slowRequestEndedAt(100);
		startedAt(1_000);
		this.clock.drained(T0 + 1_050 * MS, 0);
		assertThat(wakeAt(1_050, 0, T0)).isEqualTo(151);
		assertThat(wakeAt(1_150, 0, T0)).isEqualTo(51);
		assertThat(dueAt(1_200, 0, T0)).isTrue();
	}

	/**
	 * The pacing finding of the December review: on a busy store some request always
	 * awaits its samples, and at a steady rate none brings a collection forward, so the
	 * collector keeps its pace instead of draining every 50 ms.
	 */
	@Test
	void requestsAwaitingInARoomFarFromFullKeepThePace() {
		startedAt(0);
		this.clock.drained(T0 + 300 * MS, 0);
		long slowest = SETTINGS.slowestDrain().toMillis();
		long quickest = SETTINGS.quickestDrain().toMillis();
		// 18 in 300 ms: the room of 1000 fills in about 16 s.
		assertThat(wakeAt(300, 18, NOTHING_JOINED)).isEqualTo(slowest);
		// 350 in 300 ms fill the 650 left in 557 ms: not within the margin and a slowest
		// drain.
		assertThat(wakeAt(300, 350, NOTHING_JOINED)).isEqualTo(slowest);
		// At the quickest pace once it may fill within them: 400 fill the 600 left in
		// 450 ms.
		assertThat(wakeAt(300, 400, NOTHING_JOINED)).isEqualTo(quickest);
		assertThat(wakeAt(300, 500, NOTHING_JOINED)).as("half full").isEqualTo(quickest);
		// Nor after a collection that did not move the watermark on.
		this.clock.ended(false);
		assertThat(wakeAt(300, 500, NOTHING_JOINED)).isEqualTo(slowest);
	}

	@Test
	void anEngineThatHasShownNoLagGetsTheMinimumDeliveryHorizon() {
		assertThat(this.clock.deliveryHorizon()).isEqualTo(60 * SECOND);
		this.clock.promised(10 * SECOND, 10 * SECOND);
		this.clock.promised(11 * SECOND, 11 * SECOND);
		assertThat(this.clock.deliveryHorizon()).isEqualTo(60 * SECOND);
	}

	@Test
	void aPromiseThatMovesInLongStepsWidensTheDeliveryHorizonToTwiceTheLongestStaleness() {
		this.clock.promised(0, 1 * SECOND);
		// Frozen at 0 until 45 s: it had grown 45 s stale when it moved.
		this.clock.promised(0, 30 * SECOND);
		this.clock.promised(44 * SECOND, 45 * SECOND);
		assertThat(this.clock.deliveryHorizon()).isEqualTo(90 * SECOND);
		// A shorter lag later does not narrow it.
		this.clock.promised(50 * SECOND, 51 * SECOND);
		assertThat(this.clock.deliveryHorizon()).isEqualTo(90 * SECOND);
	}

	@Test
	void oneVeryLongStallDoesNotSetTheDeliveryHorizonBeyondTheMaximum() {
		this.clock.promised(0, 0);
		this.clock.promised(3600 * SECOND, 3600 * SECOND);
		assertThat(this.clock.deliveryHorizon()).isEqualTo(600 * SECOND);
	}

	@Test
	void aSwitchOffIsNoLagOfTheEngines() {
		this.clock.promised(0, 0);
		this.clock.resumed(1200 * SECOND);
		this.clock.promised(1201 * SECOND, 1201 * SECOND);
		assertThat(this.clock.deliveryHorizon()).isEqualTo(60 * SECOND);
	}

	private void startedAt(long millis) {
		this.clock.started(T0 + millis * MS);
	}

	private void endedAt(long millis) {
		this.now.set(T0 + millis * MS);
		this.clock.ended(true);
	}

	private void requestsBeganAwaitingAt(long millis) {
		this.now.set(T0 + millis * MS);
		this.clock.requestsBeganAwaiting();
	}

	private void slowRequestEndedAt(long millis) {
		this.now.set(T0 + millis * MS);
		this.clock.slowRequestEnded();
	}

	private boolean dueAt(long millis, int awaiting, long completeUpTo) {
		this.now.set(T0 + millis * MS);
		return this.clock.due(awaiting, ROOM, completeUpTo);
	}

	private long wakeAt(long millis, int awaiting, long completeUpTo) {
		this.now.set(T0 + millis * MS);
		return this.clock.nextWakeMillis(awaiting, ROOM, completeUpTo);
	}

}
