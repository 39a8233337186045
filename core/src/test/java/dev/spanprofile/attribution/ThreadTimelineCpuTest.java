package dev.spanprofile.attribution;

import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ThreadActivity;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request's CPU time from its threads' CPU clocks, read where a thread enters and
 * leaves spans: summed over every thread and stretch when each was measured, and never
 * passed off as whole when a stretch was not.
 */
class ThreadTimelineCpuTest {

	private static final String TRACE = "0123456789abcdef0123456789abcdef";

	private static final String OTHER_TRACE = "fedcba9876543210fedcba9876543210";

	private static final long UNREAD = -1;

	private final SpanProfileStore store = new SpanProfileStore(new StoreSettings(100, Long.MAX_VALUE, false));

	private final SampleAttributor attributor = new SampleAttributor(this.store);

	private final SpanContext root = started(TRACE, "00000000000000a1", null);

	private final SpanContext child = started(TRACE, "00000000000000a2", "00000000000000a1");

	private final SpanContext otherRequest = started(OTHER_TRACE, "00000000000000b1", null);

	@Test
	void stretchesOnEveryThreadAddUpToTheRequestsCpuTime() {
		// Thread 1: enters at 1.0 ms of its CPU, runs the child and comes back without
		// leaving spans, leaves at 6.0.
		this.attributor.changed(1, 100, this.root, 1_000_000);
		this.attributor.changed(1, 110, this.child, UNREAD);
		this.attributor.changed(1, 120, this.root, UNREAD);
		// Thread 2 takes part of the work over a hand-off: 3.0 ms of its CPU.
		this.attributor.changed(2, 130, this.child, 40_000_000);
		assertThat(measured(this.root)).as("a stretch is still open").isEqualTo(-1);
		this.attributor.changed(2, 140, null, 43_000_000);
		this.attributor.changed(1, 150, null, 6_000_000);

		assertThat(measured(this.root)).isEqualTo(8_000_000);
		assertThat(record(this.child).measuredCpu()).as("the request's, shared by its spans")
			.isSameAs(record(this.root).measuredCpu());
		assertThat(measured(this.otherRequest)).as("never entered").isEqualTo(-1);
	}

	@Test
	void aThreadReturningToTheSameRequestAddsEachStretch() {
		this.attributor.changed(1, 100, this.root, 1_000_000);
		this.attributor.changed(1, 110, null, 2_000_000);
		this.attributor.changed(1, 120, this.child, 10_000_000);
		this.attributor.changed(1, 130, null, 12_500_000);

		assertThat(measured(this.root)).isEqualTo(3_500_000);
	}

	@Test
	void aThreadStraightBackInTheSpanItLeftGoesOnWithItsStretch() {
		// Spring MVC's metrics handler opens the request's scope once more after the
		// filter closed it.
		this.attributor.changed(1, 100, this.root, 1_000_000);
		this.attributor.changed(1, 110, null, 3_000_000);
		this.attributor.changed(1, 111, this.root, ThreadActivity.CLOCK_CONTINUED);
		assertThat(measured(this.root)).as("a stretch is open again").isEqualTo(-1);
		this.attributor.changed(1, 112, null, 3_400_000);

		assertThat(measured(this.root)).isEqualTo(2_400_000);
	}

	@Test
	void aContinuedStretchWithNothingToGoOnFromLeavesTheRequestUnmeasured() {
		this.attributor.changed(1, 100, this.root, 1_000_000);
		this.attributor.changed(1, 110, null, 3_000_000);
		this.attributor.gap(1, 111);
		this.attributor.changed(1, 120, this.root, ThreadActivity.CLOCK_CONTINUED);
		this.attributor.changed(1, 130, null, 4_000_000);
		this.attributor.changed(2, 140, this.otherRequest, ThreadActivity.CLOCK_CONTINUED);
		this.attributor.changed(2, 150, null, 5_000_000);

		assertThat(measured(this.root)).as("its points were lost in between").isEqualTo(-1);
		assertThat(measured(this.otherRequest)).as("never left before").isEqualTo(-1);
	}

	@Test
	void lostChangePointsLeaveTheRequestUnmeasuredForGood() {
		this.attributor.changed(1, 100, this.root, 1_000_000);
		this.attributor.gap(1, 110);
		this.attributor.changed(1, 120, null, 9_000_000);
		this.attributor.changed(1, 130, this.root, 10_000_000);
		this.attributor.changed(1, 140, null, 11_000_000);

		assertThat(measured(this.root)).isEqualTo(-1);
	}

	@Test
	void anotherRequestAttachedWithoutLeavingSpansMakesBothUnmeasured() {
		// An event loop that moves from one request's context to another's directly: no
		// clock read between them.
		this.attributor.changed(1, 100, this.root, 1_000_000);
		this.attributor.changed(1, 110, this.otherRequest, UNREAD);
		this.attributor.changed(1, 120, null, 5_000_000);

		assertThat(measured(this.root)).isEqualTo(-1);
		assertThat(measured(this.otherRequest)).isEqualTo(-1);
	}

	@Test
	void partOfTheRequestOnAThreadWithoutAClockLeavesItUnmeasured() {
		// A virtual thread's points carry no clock: its share of the request is unknown.
		this.attributor.changed(1, 100, this.root, 1_000_000);
		this.attributor.changed(1, 110, null, 2_000_000);
		this.attributor.changed(7, 120, this.child, UNREAD);
		this.attributor.changed(7, 130, null, UNREAD);

		assertThat(measured(this.root)).isEqualTo(-1);
	}

	@Test
	void aThreadThatDiesInsideTheRequestLeavesItUnmeasured() {
		this.attributor.changed(1, 100, this.root, 1_000_000);
		this.attributor.threadEnded(1);

		assertThat(measured(this.root)).isEqualTo(-1);
		assertThat(record(this.root).measuredCpu().applicationNanos(0)).isEqualTo(-1);
	}

	@Test
	void theProfilersOwnWorkOnTheThreadsIsNotTheRequests() {
		this.attributor.changed(1, 100, this.root, 0);
		this.attributor.changed(1, 110, null, 50_000_000);

		assertThat(record(this.root).measuredCpu().applicationNanos(10_000_000)).isEqualTo(40_000_000);
		assertThat(record(this.root).measuredCpu().applicationNanos(80_000_000)).isZero();
	}

	@Test
	void aSpansCpuTimeIsTheMeasuredOneOnlyForAWholeMeasuredRequest() {
		long interval = 10_000_000;
		SpanCpuTime fromSamples = SpanCpuTime.of(record(this.root), 3, 1, interval);
		assertThat(fromSamples).as("not measured yet: the samples")
			.isEqualTo(new SpanCpuTime(30_000_000, false, 1, 10_000_000));
		this.attributor.changed(1, 100, this.root, 0);
		this.attributor.changed(1, 110, this.child, UNREAD);
		this.attributor.changed(1, 120, null, 50_000_000);

		assertThat(SpanCpuTime.of(record(this.root), 3, 1, interval)).as("the clocks, less the profiler's own work")
			.isEqualTo(new SpanCpuTime(40_000_000, true, 1, 10_000_000));
		assertThat(SpanCpuTime.of(record(this.child), 2, 0, interval)).as("a child's share is not measured")
			.isEqualTo(new SpanCpuTime(20_000_000, false, 0, 0));
		assertThat(SpanCpuTime.NOT_SAMPLED.nanos()).isNegative();
	}

	@Test
	void theKernelsFiguresAddUpOverTheStretchesWithTheCpu() {
		// Thread 1: 100 ns in the request, 30 on CPU, 20 waiting for a core; it comes
		// straight back for 10 ns more (5 on CPU, 1 runnable).
		this.attributor.changed(1, 1_000, this.root, 100, 500, 1_000);
		this.attributor.changed(1, 1_100, null, 130, 520, 1_100);
		this.attributor.changed(1, 1_101, this.root, ThreadActivity.CLOCK_CONTINUED, ThreadActivity.CLOCK_CONTINUED,
				1_101);
		this.attributor.changed(1, 1_110, null, 135, 521, 1_110);
		// Thread 2: 55 ns, all blocked, counted from where its clocks were read, 5 ns
		// before its point's time.
		this.attributor.changed(2, 1_050, this.child, 7_000, 9_000, 1_045);
		this.attributor.changed(2, 1_100, null, 7_000, 9_000, 1_100);

		SpanCpuTime.Measured sums = record(this.root).measuredCpu().complete();
		assertThat(sums.cpuNanos()).isEqualTo(35);
		assertThat(sums.runQueueNanos()).isEqualTo(21);
		assertThat(sums.onThreadNanos()).isEqualTo(165);
		assertThat(sums.blockedNanos()).isEqualTo(109);
		SpanCpuTime cpu = SpanCpuTime.of(record(this.root), 0, 0, 10);
		assertThat(cpu).isEqualTo(new SpanCpuTime(35, true, 0, 0, 21, 109));
	}

	@Test
	void aStretchWithoutTheKernelsFiguresLeavesOnlyTheCpuMeasured() {
		// Read where the thread entered, not where it left (the figure became
		// unreadable).
		this.attributor.changed(1, 1_000, this.root, 100, 500, 1_000);
		this.attributor.changed(1, 1_100, null, 130, UNREAD, 1_100);

		SpanCpuTime.Measured sums = record(this.root).measuredCpu().complete();
		assertThat(sums.cpuNanos()).isEqualTo(30);
		assertThat(sums.scheduled()).isFalse();
		assertThat(sums.blockedNanos()).isEqualTo(-1);
		assertThat(SpanCpuTime.of(record(this.root), 0, 0, 10)).isEqualTo(new SpanCpuTime(30, true, 0, 0));
	}

	@Test
	void theWaitForACoreBetweenAThreadsPreviousRequestAndItsNextIsTheNextOnesBeforeItStarted() {
		// Thread 1 leaves the other request with 500 ns of run-queue wait so far, and
		// takes this one with 540: 40 ns waiting for a core to take it.
		this.attributor.changed(1, 1_000, this.otherRequest, 100, 480, 1_000);
		this.attributor.changed(1, 1_100, null, 130, 500, 1_100);
		this.attributor.changed(1, 5_000, this.root, 150, 540, 5_000);
		this.attributor.changed(1, 5_100, null, 170, 545, 5_100);
		// Thread 2 enters its child after a point in between: nothing said for it, and
		// the request's figure stays the first thread's.
		this.attributor.changed(2, 1_000, null, 7_000, 9_000, 1_000);
		this.attributor.changed(2, 5_010, this.child, 7_010, 9_090, 5_010);
		this.attributor.changed(2, 5_050, null, 7_020, 9_095, 5_050);

		assertThat(record(this.root).measuredCpu().runQueueBeforeNanos()).isEqualTo(40);
		assertThat(record(this.root).measuredCpu().complete().runQueueNanos()).isEqualTo(10);
		// The other request was the thread's first: no previous request to count from.
		assertThat(record(this.otherRequest).measuredCpu().runQueueBeforeNanos()).isEqualTo(UNREAD);
	}

	@Test
	void noWaitBeforeTheStartIsSaidWhereAPointInBetweenOrAnUnreadFigureLeavesItUnknown() {
		this.attributor.changed(1, 1_000, this.otherRequest, 100, 480, 1_000);
		this.attributor.changed(1, 1_100, null, 130, UNREAD, 1_100);
		this.attributor.changed(1, 5_000, this.root, 150, 540, 5_000);
		this.attributor.changed(1, 5_100, null, 170, 545, 5_100);

		assertThat(record(this.root).measuredCpu().runQueueBeforeNanos()).isEqualTo(UNREAD);
	}

	@Test
	void noWaitBeforeTheStartIsSaidOnceUntracedRequestsRunSinceOneMayHaveRunInBetweenUnseen() {
		this.attributor.untracedRequestsRunBy(() -> true);
		this.attributor.changed(1, 1_000, this.otherRequest, 100, 480, 1_000);
		this.attributor.changed(1, 1_100, null, 130, 500, 1_100);
		// An untraced, unprofiled request could run here and leave no point.
		this.attributor.changed(1, 5_000, this.root, 150, 540, 5_000);
		this.attributor.changed(1, 5_100, null, 170, 545, 5_100);

		assertThat(record(this.root).measuredCpu().runQueueBeforeNanos()).isEqualTo(UNREAD);
		assertThat(record(this.root).measuredCpu().complete().runQueueNanos()).as("the request's own, still read")
			.isEqualTo(5);
	}

	@Test
	void theWaitBeforeTheStartIsTheEarliestEntrysWhateverOrderTheThreadsAreDrainedIn() {
		// Thread 2, which the request hands work to at 5_010, is drained first: its own
		// wait since its previous request (70 ns) is not the request's.
		this.attributor.changed(2, 1_000, this.otherRequest, 7_000, 9_000, 1_000);
		this.attributor.changed(2, 1_100, null, 7_010, 9_020, 1_100);
		this.attributor.changed(2, 5_010, this.child, 7_020, 9_090, 5_010);
		this.attributor.changed(2, 5_050, null, 7_030, 9_095, 5_050);
		// Thread 1 took the request at 5_000 after 40 ns waiting for a core.
		this.attributor.changed(1, 1_200, this.otherRequest, 100, 480, 1_200);
		this.attributor.changed(1, 1_300, null, 130, 500, 1_300);
		this.attributor.changed(1, 5_000, this.root, 150, 540, 5_000);
		this.attributor.changed(1, 5_100, null, 170, 545, 5_100);

		assertThat(record(this.root).measuredCpu().runQueueBeforeNanos()).isEqualTo(40);
	}

	/**
	 * The default: the kernel's run-queue figure read where threads enter and leave the
	 * request, the CPU clocks not. The wait for a core is complete; the CPU is counted
	 * from samples, and the time blocked is estimated with them.
	 */
	@Test
	void theWaitForACoreIsCompleteWithoutTheCpuClocks() {
		// Thread 1: 100 ns in the request, 20 runnable; straight back for 10 ns more,
		// 1 runnable.
		this.attributor.changed(1, 1_000, this.root, UNREAD, 500, 1_000);
		this.attributor.changed(1, 1_100, null, UNREAD, 520, 1_100);
		this.attributor.changed(1, 1_101, this.root, ThreadActivity.CLOCK_CONTINUED, ThreadActivity.CLOCK_CONTINUED,
				1_101);
		this.attributor.changed(1, 1_110, null, UNREAD, 521, 1_110);
		// Thread 2 over a hand-off: 55 ns from where its figure was read, 4 runnable.
		this.attributor.changed(2, 1_050, this.child, UNREAD, 9_000, 1_045);
		assertThat(record(this.root).measuredCpu().scheduledIfComplete()).as("a stretch is still open").isNull();
		this.attributor.changed(2, 1_100, null, UNREAD, 9_004, 1_100);

		SpanCpuTime.Measured measured = record(this.root).measuredCpu();
		assertThat(measured.nanosIfComplete()).as("no CPU clock read").isEqualTo(-1);
		assertThat(measured.complete()).isNull();
		SpanCpuTime.Measured sums = measured.scheduledIfComplete();
		assertThat(sums.runQueueNanos()).isEqualTo(25);
		assertThat(sums.onThreadNanos()).isEqualTo(165);
		assertThat(sums.scheduled()).isTrue();
		assertThat(sums.blockedNanos()).as("not without the CPU clocks").isEqualTo(-1);
		// 6 samples of 10 ns, one of them the profiler's: 165 - 60 - 25 blocked, by
		// that estimate.
		assertThat(SpanCpuTime.of(record(this.root), 5, 1, 10)).isEqualTo(new SpanCpuTime(50, false, 1, 10, 25, 80));
		assertThat(SpanCpuTime.of(record(this.root), 30, 0, 10)).as("an estimate above the time on the threads")
			.isEqualTo(new SpanCpuTime(300, false, 0, 0, 25, 0));
		assertThat(SpanCpuTime.of(record(this.child), 2, 0, 10)).as("a child's share is not measured")
			.isEqualTo(new SpanCpuTime(20, false, 0, 0));
	}

	@Test
	void aStretchWithTheCpuClockReadAtOneEndOnlyLeavesTheWaitForACoreMeasured() {
		// Exact CPU time turned off while the thread was in the request.
		this.attributor.changed(1, 1_000, this.root, 100, 500, 1_000);
		this.attributor.changed(1, 1_100, null, UNREAD, 520, 1_100);

		SpanCpuTime.Measured measured = record(this.root).measuredCpu();
		assertThat(measured.complete()).isNull();
		assertThat(measured.scheduledIfComplete().runQueueNanos()).isEqualTo(20);
		assertThat(measured.scheduledIfComplete().onThreadNanos()).isEqualTo(100);
	}

	@Test
	void withoutTheCpuClocksLostOrUnreadPointsStillLeaveTheWaitForACoreUnmeasured() {
		// Another request attached with no figure read in between.
		this.attributor.changed(1, 1_000, this.root, UNREAD, 500, 1_000);
		this.attributor.changed(1, 1_050, this.otherRequest, UNREAD, UNREAD, 1_050);
		this.attributor.changed(1, 1_100, null, UNREAD, 520, 1_100);
		// A gap in the points.
		SpanContext third = started("00000000000000000000000000000003", "00000000000000c1", null);
		this.attributor.changed(2, 2_000, third, UNREAD, 700, 2_000);
		this.attributor.gap(2, 2_050);
		this.attributor.changed(2, 2_100, null, UNREAD, 720, 2_100);

		assertThat(record(this.root).measuredCpu().scheduledIfComplete()).isNull();
		assertThat(record(this.otherRequest).measuredCpu().scheduledIfComplete()).isNull();
		assertThat(record(third).measuredCpu().scheduledIfComplete()).isNull();
		assertThat(SpanCpuTime.of(record(this.root), 1, 0, 10)).isEqualTo(new SpanCpuTime(10, false, 0, 0));
	}

	private SpanContext started(String trace, String spanId, String parentSpanId) {
		this.store.spanStarted(trace, spanId, parentSpanId, parentSpanId != null, "work", "SERVER", 1, "worker");
		return SpanContext.create(trace, spanId, TraceFlags.getSampled(), TraceState.getDefault());
	}

	private SpanRecord record(SpanContext span) {
		return this.store.findTracked(span.getSpanId());
	}

	private long measured(SpanContext span) {
		return record(span).measuredCpu().nanosIfComplete();
	}

}
