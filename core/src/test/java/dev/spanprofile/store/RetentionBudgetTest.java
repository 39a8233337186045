package dev.spanprofile.store;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import dev.spanprofile.profile.SampleKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's budget ({@link RetentionBudget}): which requests leave to keep the store
 * within {@code max-spans} and {@code max-memory}, recent ones oldest first and whole,
 * and how the protected ones (slowest, failed) keep their slots within at most half of
 * it. The protected half as samples arrive after a request ended:
 * {@link ProtectedShareTest}; forced requests: {@link ForcedRetentionTest}.
 */
class RetentionBudgetTest {

	private static final long MS = 1_000_000L;

	private final AtomicLong clock = new AtomicLong(1_000_000 * MS);

	private int sequence;

	@Test
	void slowestRequestSurvivesTwentyTimesMaxSpansOfLaterRequests() {
		SpanProfileStore store = store(
				new StoreSettings(50, Long.MAX_VALUE, true, new RetentionSettings(5, Duration.ofHours(1), 100, 60)));
		String slow = request(store, "GET /owners", 900, "OK");
		for (int i = 0; i < 1200; i++) {
			request(store, "GET /owners", 5 + (i % 7), "OK");
			assertThat(store.size()).isLessThanOrEqualTo(50);
		}
		assertThat(store.find(slow)).isNotNull();
		assertThat(store.find(slow).retainedAs()).isEqualTo(RetainedAs.SLOWEST);
		// The slots hold the five slowest: the 900 ms one and the 11 ms ones (the slowest
		// of the rest).
		assertThat(store.protectedCount()).isEqualTo(5);
		assertThat(store.recent((r) -> r.retainedAs() == RetainedAs.SLOWEST, 100))
			.extracting((r) -> r.durationNanos(0) / MS)
			.containsExactlyInAnyOrder(900L, 11L, 11L, 11L, 11L);
		// Ordinary requests are still the most recent ones, in the other part of the
		// budget.
		assertThat(store.recent((r) -> r.retainedAs() == RetainedAs.RECENT, 100)).hasSize(45);
	}

	@Test
	void protectionEndsWithTheWindowAndTheRequestGoesFirst() {
		SpanProfileStore store = store(
				new StoreSettings(20, Long.MAX_VALUE, true, new RetentionSettings(1, Duration.ofMinutes(1), 100, 60)));
		String slow = request(store, "GET /owners", 900, "OK");
		for (int i = 0; i < 100; i++) {
			request(store, "GET /owners", 5, "OK");
		}
		this.clock.addAndGet(59_000 * MS);
		store.evictIfNeeded();
		assertThat(store.find(slow).retainedAs()).isEqualTo(RetainedAs.SLOWEST);
		this.clock.addAndGet(2_000 * MS);
		store.evictIfNeeded();
		// Out of its window it is an ordinary old request: still readable while there is
		// room, then first to go.
		assertThat(store.find(slow).retainedAs()).isEqualTo(RetainedAs.RECENT);
		String next = request(store, "GET /owners", 5, "OK");
		assertThat(store.find(slow)).isNull();
		// The slot is free again: the next request of the name takes it.
		assertThat(store.find(next).retainedAs()).isEqualTo(RetainedAs.SLOWEST);
	}

	@Test
	void latestErrorOfANameAndMinuteIsKept() {
		SpanProfileStore store = store(
				new StoreSettings(20, Long.MAX_VALUE, true, new RetentionSettings(0, Duration.ofHours(1), 100, 60)));
		String firstError = request(store, "POST /orders", 10, "ERROR");
		String laterError = request(store, "POST /orders", 10, "ERROR");
		String otherName = request(store, "GET /pets", 10, "ERROR");
		for (int i = 0; i < 500; i++) {
			request(store, "POST /orders", 10, "OK");
		}
		assertThat(store.find(firstError)).isNull();
		assertThat(store.find(laterError).retainedAs()).isEqualTo(RetainedAs.ERROR);
		assertThat(store.find(otherName).retainedAs()).isEqualTo(RetainedAs.ERROR);
		// A failure in the next minute gets its own slot.
		this.clock.addAndGet(60_000 * MS);
		String nextMinute = request(store, "POST /orders", 10, "ERROR");
		for (int i = 0; i < 100; i++) {
			request(store, "POST /orders", 10, "OK");
		}
		assertThat(store.find(laterError)).isNotNull();
		assertThat(store.find(nextMinute).retainedAs()).isEqualTo(RetainedAs.ERROR);
		assertThat(store.protectedCount()).isEqualTo(3);
	}

	@Test
	void errorSlotsAreBounded() {
		SpanProfileStore store = store(
				new StoreSettings(1000, Long.MAX_VALUE, true, new RetentionSettings(0, Duration.ofHours(1), 100, 3)));
		for (int i = 0; i < 10; i++) {
			request(store, "GET /n" + i, 10, "ERROR");
		}
		assertThat(store.protectedCount()).isEqualTo(3);
		assertThat(store.recent((r) -> r.retainedAs() == RetainedAs.ERROR, 10)).extracting(SpanRecord::name)
			.containsExactlyInAnyOrder("GET /n7", "GET /n8", "GET /n9");
	}

	@Test
	void namesBeyondTheCapShareTheSlotsOfOther() {
		SpanProfileStore store = store(
				new StoreSettings(1000, Long.MAX_VALUE, true, new RetentionSettings(2, Duration.ofHours(1), 3, 0)));
		for (int i = 0; i < 50; i++) {
			request(store, "GET /n" + i, 10 + i, "OK");
		}
		// The first three names have a request each; all later names share the two slots
		// of "other".
		assertThat(store.protectedCount()).isEqualTo(5);
		assertThat(store.recent((r) -> r.retainedAs() == RetainedAs.SLOWEST, 100)).extracting(SpanRecord::name)
			.containsExactlyInAnyOrder("GET /n0", "GET /n1", "GET /n2", "GET /n48", "GET /n49");
	}

	@Test
	void protectedRequestsHoldAtMostHalfOfTheSpans() {
		SpanProfileStore store = store(
				new StoreSettings(40, Long.MAX_VALUE, true, new RetentionSettings(5, Duration.ofHours(1), 100, 60)));
		// Every name new, every request its name's slowest: protection is offered to all
		// of them.
		for (int i = 0; i < 300; i++) {
			request(store, "GET /n" + i, 10, (i % 2 == 0) ? "ERROR" : "OK");
			assertThat(store.size()).isLessThanOrEqualTo(40);
		}
		assertThat(store.protectedCount()).isEqualTo(20);
		assertThat(store.recent((r) -> r.retainedAs() == RetainedAs.RECENT, 100)).hasSize(20);
	}

	@Test
	void memoryBudgetHoldsWithProtectedRequestsAndTheyGoLast() {
		long budget = 256 * 1024;
		SpanProfileStore store = store(
				new StoreSettings(10_000, budget, true, new RetentionSettings(5, Duration.ofHours(1), 100, 60)));
		String slow = request(store, "GET /report", 2_000, "OK", 40);
		for (int i = 0; i < 2000; i++) {
			request(store, "GET /report", 10, "OK", 20);
			assertThat(store.approximateBytes()).isLessThanOrEqualTo(budget);
		}
		assertThat(store.find(slow).retainedAs()).isEqualTo(RetainedAs.SLOWEST);
		// Requests with more samples than half the budget hold cannot be protected; the
		// budget holds regardless.
		String huge = request(store, "GET /report", 5_000, "OK", 3000);
		assertThat(store.approximateBytes()).isLessThanOrEqualTo(budget);
		SpanRecord hugeRecord = store.find(huge);
		assertThat((hugeRecord == null) ? RetainedAs.RECENT : hugeRecord.retainedAs()).isEqualTo(RetainedAs.RECENT);
	}

	@Test
	void aBurstOfRunningRequestsDoesNotCostTheKeptOnes() {
		SpanProfileStore store = store(
				new StoreSettings(10, Long.MAX_VALUE, true, new RetentionSettings(5, Duration.ofHours(1), 100, 60)));
		String slow = request(store, "GET /owners", 900, "OK");
		// More requests in flight than max-spans: they are bounded at twice the limit,
		// and dropping the kept request would not make room for them.
		for (int i = 0; i < 30; i++) {
			store.spanStarted("running" + i, "running" + i, null, false, "GET /long", "SERVER", this.clock.get(),
					"main");
		}
		assertThat(store.find(slow)).isNotNull();
		assertThat(store.find(slow).retainedAs()).isEqualTo(RetainedAs.SLOWEST);
		assertThat(store.size()).isLessThan(2 * 10);
	}

	@Test
	void keptRequestsGoAsALastResortWhenMemoryIsShort() {
		long budget = 64 * 1024;
		SpanProfileStore store = store(
				new StoreSettings(1000, budget, true, new RetentionSettings(5, Duration.ofHours(1), 100, 60)));
		String slow = request(store, "GET /owners", 900, "OK", 40);
		assertThat(store.find(slow).retainedAs()).isEqualTo(RetainedAs.SLOWEST);
		// One running request grows past the budget: nothing ordinary is left to drop, so
		// the kept one goes.
		SpanRecord running = store.spanStarted("big", "big", null, false, "GET /export", "SERVER", this.clock.get(),
				"main");
		for (int i = 0; i < 2000; i++) {
			store.addSample(running, SampleKind.CPU, new int[] { 1, 2, 50_000 + i }, 1);
		}
		assertThat(store.find(slow)).isNull();
		assertThat(store.protectedCount()).isZero();
	}

	@Test
	void childrenTellTheirRequestsReason() {
		SpanProfileStore store = store(StoreSettings.defaults());
		long start = this.clock.get();
		store.spanStarted("t", "root", null, false, "GET /", "SERVER", start, "main");
		store.spanStarted("t", "child", "root", true, "db", "CLIENT", start + MS, "main");
		store.spanEnded("child", null, "OK", start + 2 * MS, false);
		assertThat(store.find("child").retainedAs()).isEqualTo(RetainedAs.RECENT);
		store.spanEnded("root", null, "ERROR", start + 3 * MS, false);
		assertThat(store.find("root").retainedAs()).isEqualTo(RetainedAs.SLOWEST);
		assertThat(store.find("child").retainedAs()).isEqualTo(RetainedAs.SLOWEST);
	}

	@Test
	void recentOnlyKeepsNothingBeyondTheRecentRequests() {
		SpanProfileStore store = store(new StoreSettings(10, Long.MAX_VALUE, true, RetentionSettings.recentOnly()));
		String slow = request(store, "GET /owners", 900, "ERROR");
		for (int i = 0; i < 10; i++) {
			request(store, "GET /owners", 5, "OK");
		}
		assertThat(store.find(slow)).isNull();
	}

	@Test
	void countsEverySpanOfAnEvictedRequest() {
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(4, Long.MAX_VALUE, false));
		store.spanStarted("t1", "r1", null, false, "r1", "SERVER", 1, "main");
		store.spanStarted("t1", "c1", "r1", true, "c1", "INTERNAL", 2, "main");
		store.spanStarted("t1", "g1", "c1", true, "g1", "INTERNAL", 3, "main");
		store.spanEnded("g1", "g1", "OK", 4, false);
		store.spanEnded("c1", "c1", "OK", 4, false);
		store.spanEnded("r1", "r1", "OK", 5, false);
		assertThat(store.evictedSpans()).isZero();
		store.spanStarted("t2", "r2", null, false, "r2", "SERVER", 6, "main");
		store.spanStarted("t3", "r3", null, false, "r3", "SERVER", 7, "main");
		// Five spans over a limit of four: the whole first request (three spans) goes.
		assertThat(store.find("r1")).isNull();
		assertThat(store.evictedSpans()).isEqualTo(3);
	}

	@Test
	void requestsLeftOutOnPurposeAreNotEvictions() {
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(4, Long.MAX_VALUE, false));
		store.spanStarted("t1", "r1", null, false, "GET /actuator/health", "SERVER", 1, "main");
		store.spanEnded("r1", "GET /actuator/health", "OK", 2, true);
		assertThat(store.find("r1")).isNull();
		assertThat(store.evictedSpans()).isZero();
	}

	@Test
	void aPassOverTheBoundsMakesRoomForTheNextSixtyFourthOfTheRequests() {
		SpanProfileStore store = new SpanProfileStore(
				new StoreSettings(640, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));
		for (int i = 0; i < 641; i++) {
			store.spanStarted("t" + i, "r" + i, null, false, "GET /", "SERVER", i + 1, "main");
			store.spanEnded("r" + i, "GET /", "OK", i + 2, false);
		}
		// One over the limit: the pass drops the oldest eleven, to 630 of 640.
		assertThat(store.size()).isEqualTo(630);
		assertThat(IntStream.rangeClosed(0, 640).filter((i) -> store.find("r" + i) != null)).as("requests kept")
			.containsExactlyElementsOf(IntStream.rangeClosed(11, 640).boxed().toList());
		for (int i = 641; i < 651; i++) {
			store.spanStarted("t" + i, "r" + i, null, false, "GET /", "SERVER", i + 1, "main");
		}
		// The next ten fill the room without a pass.
		assertThat(store.size()).isEqualTo(640);
		assertThat(store.evictedSpans()).isEqualTo(11);
		store.spanStarted("t651", "r651", null, false, "GET /", "SERVER", 652, "main");
		assertThat(store.size()).isEqualTo(630);
		assertThat(store.evictedSpans()).isEqualTo(22);
	}

	private SpanProfileStore store(StoreSettings settings) {
		return new SpanProfileStore(settings, this.clock::get);
	}

	private String request(SpanProfileStore store, String name, long durationMillis, String status) {
		return request(store, name, durationMillis, status, 0);
	}

	/**
	 * One request that took {@code durationMillis}, ending now, with {@code samples}
	 * distinct stacks.
	 */
	private String request(SpanProfileStore store, String name, long durationMillis, String status, int samples) {
		String id = "s" + (this.sequence++);
		long end = this.clock.addAndGet(MS);
		SpanRecord record = store.spanStarted(id, id, null, false, name, "SERVER", end - durationMillis * MS, "main");
		for (int i = 0; i < samples; i++) {
			store.addSample(record, SampleKind.CPU, new int[] { 1, 2, 1000 + this.sequence * 7 + i }, 1);
		}
		store.spanEnded(id, name, status, end, false);
		return id;
	}

}
