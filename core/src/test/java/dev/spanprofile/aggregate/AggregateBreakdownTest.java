package dev.spanprofile.aggregate;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.WaitKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A name's requests' breakdowns folded into its aggregates and read back for a window, a
 * duration range and the slow side of a comparison: exact sums of each request's parts,
 * which add up to the requests' total duration.
 */
class AggregateBreakdownTest {

	private static final long MS = 1_000_000;

	private static final long INTERVAL = 10 * MS;

	private final AtomicLong clock = new AtomicLong(Duration.ofDays(20_000).toNanos());

	private final FrameTable frames = new FrameTable();

	private final NameAggregates aggregates = new NameAggregates(AggregateSettings.defaults(), this.frames,
			this.clock::get, () -> INTERVAL);

	@Test
	void aWindowAddsUpEachRequestsParts() {
		// 100 ms: CPU 20, 3 trips to db 30, park 10: 40 unaccounted.
		request(100, 2, wait(WaitKind.SOCKET_READ, "db:5432", 30, 3), wait(WaitKind.PARK, null, 10, 1));
		// 50 ms: CPU 10, 1 trip 5: 35 unaccounted.
		request(50, 1, wait(WaitKind.SOCKET_READ, "db:5432", 5, 1));
		// 30 ms: CPU 40 (threads at once): 10 over, none unaccounted.
		request(30, 4);

		RequestsBreakdown all = breakdown(LatencySelection.durations(0, Long.MAX_VALUE));
		assertThat(all.requests()).isEqualTo(3);
		assertThat(all.durationNanos()).isEqualTo(180 * MS);
		assertThat(all.cpuRequests()).isEqualTo(3);
		assertThat(all.cpuNanos()).isEqualTo(70 * MS);
		assertThat(all.cpuSamples()).isEqualTo(7);
		assertThat(all.measuredRequests()).isZero();
		assertThat(all.waits()).containsExactly(
				new RequestsBreakdown.Waits(WaitKind.SOCKET_READ, "db:5432", false, 35 * MS, 4),
				new RequestsBreakdown.Waits(WaitKind.PARK, null, false, 10 * MS, 1));
		assertThat(all.unaccountedNanos()).isEqualTo(75 * MS);
		assertThat(all.overlapNanos()).isEqualTo(10 * MS);
		assertThat(all.cpuNanos() + all.waitNanos() + all.coreWaitNanos() + all.shortWaitNanos()
				+ all.unaccountedNanos() - all.overlapNanos())
			.isEqualTo(all.durationNanos());

		// Up to 60 ms: the 50 and 30 ms requests, by their bands.
		RequestsBreakdown short_ = breakdown(LatencySelection.durations(0, 60 * MS));
		assertThat(short_.requests()).isEqualTo(2);
		assertThat(short_.durationNanos()).isEqualTo(80 * MS);
		assertThat(short_.cpuNanos()).isEqualTo(50 * MS);
		assertThat(short_.waits())
			.containsExactly(new RequestsBreakdown.Waits(WaitKind.SOCKET_READ, "db:5432", false, 5 * MS, 1));
		assertThat(short_.unaccountedNanos()).isEqualTo(35 * MS);
	}

	@Test
	void theSlowSideAndTheTypicalSideSplitTheRequests() {
		request(100, 2, wait(WaitKind.SOCKET_READ, "db:5432", 30, 3));
		request(50, 1, wait(WaitKind.SOCKET_READ, "db:5432", 5, 1));
		request(30, 4);
		ProfileDiff diff = this.aggregates.comparisons()
			.slowAgainstTypical("GET /owners", Duration.ofMinutes(5), SampleKind.CPU, 80 * MS);
		assertThat(diff.slowBreakdown().requests()).isEqualTo(1);
		assertThat(diff.slowBreakdown().durationNanos()).isEqualTo(100 * MS);
		assertThat(diff.slowBreakdown().waits()).singleElement()
			.satisfies((waits) -> assertThat(waits.count()).isEqualTo(3));
		assertThat(diff.typicalBreakdown().requests()).isEqualTo(2);
		assertThat(diff.typicalBreakdown().durationNanos()).isEqualTo(80 * MS);
		assertThat(diff.slowSpans() + diff.typicalSpans()).isEqualTo(3);
	}

	@Test
	void aCellNamesABoundedNumberOfPeersAndAddsUpTheRest() {
		StackTree waits = new StackTree();
		int peers = BreakdownSums.MAX_SLOTS + 6;
		for (int peer = 0; peer < peers; peer++) {
			waits.add(leaf(WaitKind.SOCKET_READ, "10.0.0." + peer + ":80"), MS, 1);
		}
		fold(1_000, 0, waits);
		RequestsBreakdown all = breakdown(LatencySelection.durations(0, Long.MAX_VALUE));
		assertThat(all.waits()).hasSize(BreakdownSums.MAX_SLOTS + 1);
		assertThat(all.waits()).filteredOn(RequestsBreakdown.Waits::others).singleElement().satisfies((others) -> {
			assertThat(others.count()).isEqualTo(peers - BreakdownSums.MAX_SLOTS);
			assertThat(others.nanos()).isEqualTo((peers - BreakdownSums.MAX_SLOTS) * MS);
		});
		assertThat(all.waitNanos()).isEqualTo(peers * MS);
	}

	@Test
	void withoutCpuSampledTheCpuIsLeftOut() {
		NameAggregates noCpu = new NameAggregates(AggregateSettings.defaults(), this.frames, this.clock::get);
		StackTree[] trees = new StackTree[SampleKind.values().length];
		noCpu.foldUnsampled("GET /owners", 40 * MS, this.clock.get(), false, trees);
		RequestsBreakdown all = noCpu.profile("GET /owners", Duration.ofMinutes(5), SampleKind.CPU, 0, Long.MAX_VALUE)
			.breakdown();
		assertThat(all.cpuRequests()).isZero();
		assertThat(all.unaccountedNanos()).isEqualTo(40 * MS);
	}

	/**
	 * The run-queue figure read without the CPU clocks: the request's wait for a core
	 * adds up beside its CPU from samples (what of it recorded waits hold taken out by
	 * the time blocked that estimate leaves), its short waits do not.
	 */
	@Test
	void aWaitForACoreCountsBesideCpuFromSamplesShortWaitsOnlyWithTheClocks() {
		BreakdownSums sums = new BreakdownSums();
		// 100 ms: 2 samples (20 ms), 50 ms runnable, so 30 ms blocked by that estimate;
		// 35 ms of recorded waits, 5 of them runnable.
		sums.addRequest(100 * MS, 20 * MS, false, 2, 50 * MS, 30 * MS, 35 * MS);
		assertThat(sums.scheduledRequests).isEqualTo(1);
		assertThat(sums.coreWaitNanos).isEqualTo(45 * MS);
		assertThat(sums.coreWaitInWaitsNanos).isEqualTo(5 * MS);
		assertThat(sums.shortWaitNanos).isZero();
		assertThat(sums.unaccountedNanos).isZero();
		// Measured, 40 ms blocked of which no recorded wait covers any: short waits.
		sums.addRequest(100 * MS, 10 * MS, true, 0, 50 * MS, 40 * MS, 0);
		assertThat(sums.scheduledRequests).isEqualTo(2);
		assertThat(sums.coreWaitNanos).isEqualTo(95 * MS);
		assertThat(sums.shortWaitNanos).isEqualTo(40 * MS);
		assertThat(sums.unaccountedNanos).isZero();
		// Not read: nothing of the kernel's.
		sums.addRequest(100 * MS, 20 * MS, false, 2, -1, -1, 0);
		assertThat(sums.scheduledRequests).isEqualTo(2);
		assertThat(sums.unaccountedNanos).isEqualTo(80 * MS);
	}

	private RequestsBreakdown breakdown(LatencySelection selection) {
		return this.aggregates.profile("GET /owners", Duration.ofMinutes(5), SampleKind.CPU, selection).breakdown();
	}

	private void request(long millis, int cpuSamples, long[]... waits) {
		StackTree waitTree = new StackTree();
		for (long[] wait : waits) {
			waitTree.add(new int[] { (int) wait[0] }, wait[1], wait[2]);
		}
		fold(millis, cpuSamples, waitTree);
	}

	private void fold(long millis, int cpuSamples, StackTree waits) {
		StackTree[] trees = new StackTree[SampleKind.values().length];
		if (cpuSamples > 0) {
			trees[SampleKind.CPU.ordinal()] = new StackTree();
			trees[SampleKind.CPU.ordinal()].add(new int[] { this.frames.intern("Owners.find", FrameKind.JAVA) },
					cpuSamples);
		}
		trees[SampleKind.WAIT.ordinal()] = waits;
		this.aggregates.unsampledEnded("GET /owners", millis * MS, false, this.clock.get());
		this.aggregates.foldUnsampled("GET /owners", millis * MS, this.clock.get(), false, trees);
	}

	/** A wait leaf, its nanoseconds and its count. */
	private long[] wait(WaitKind kind, String detail, long millis, long count) {
		return new long[] { leaf(kind, detail)[0], millis * MS, count };
	}

	private int[] leaf(WaitKind kind, String detail) {
		return new int[] { this.frames.intern(kind.frameName(detail), FrameKind.WAIT) };
	}

}
