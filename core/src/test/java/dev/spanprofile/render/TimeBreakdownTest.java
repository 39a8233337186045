package dev.spanprofile.render;

import java.util.List;

import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.profile.WaitKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TimeBreakdownTest {

	private static final long MS = 1_000_000L;

	private final FrameTable frames = new FrameTable();

	private final int query = this.frames.intern("com.example.Repo.query", FrameKind.JAVA);

	@Test
	void waitsAddUpByCategoryAndPeerAndTheRestIsUnaccounted() {
		StackTree waits = new StackTree();
		wait(waits, WaitKind.SOCKET_READ.frameName("127.0.0.1:5432"), 1_000);
		wait(waits, WaitKind.SOCKET_READ.frameName("127.0.0.1:5432"), 400);
		wait(waits, WaitKind.SOCKET_WRITE.frameName("127.0.0.1:5432"), 20);
		wait(waits, WaitKind.SOCKET_READ.frameName("10.0.0.7:8080"), 300);
		wait(waits, WaitKind.MONITOR_ENTER.frameName("com.example.Inventory"), 100);
		wait(waits, WaitKind.PARK.frameName(null), 50);
		wait(waits, WaitKind.GC_PAUSE.frameName(null), 10);
		TimeBreakdown breakdown = TimeBreakdown.of(2_000 * MS, 60 * MS, 10 * MS, waits, this.frames);

		assertThat(breakdown.waitNanos()).isEqualTo(1_880 * MS);
		assertThat(breakdown.unaccountedNanos()).isEqualTo(50 * MS);
		assertThat(breakdown.overlapNanos()).isZero();
		assertThat(breakdown.mostlyWaiting()).isTrue();
		assertThat(breakdown.waits()).extracting(WaitCategory::name)
			.containsExactly("socket I/O", "lock", "park", "GC pause");
		WaitCategory socket = breakdown.waits().get(0);
		assertThat(socket.nanos()).isEqualTo(1_720 * MS);
		assertThat(socket.count()).isEqualTo(4);
		// Reads and writes to the same peer are one line of socket I/O.
		assertThat(socket.on()).containsExactly(new WaitCategory.Detail("127.0.0.1:5432", 1_420 * MS, 3),
				new WaitCategory.Detail("10.0.0.7:8080", 300 * MS, 1));
		assertThat(socket.others()).isNull();
		assertThat(breakdown.waits().get(2).on()).isEmpty();

		TimeBreakdownJson json = breakdown.json();
		assertThat(json.durationMillis()).isEqualTo(2_000.0);
		assertThat(json.cpuMillis()).isEqualTo(60.0);
		assertThat(json.cpuFrom()).isEqualTo("samples");
		assertThat(json.profilerMillis()).isEqualTo(10.0);
		assertThat(json.waitsRecorded()).isTrue();
		assertThat(json.waitMillis()).isEqualTo(1_880.0);
		assertThat(json.unaccountedMillis()).isEqualTo(50.0);
		assertThat(json.overlapMillis()).isNull();
		assertThat(json.note()).isNull();
		List<TimeBreakdownJson.Wait> categories = json.waits();
		assertThat(categories.get(0)).isEqualTo(new TimeBreakdownJson.Wait("socket I/O", 1_720.0, 4,
				List.of(new TimeBreakdownJson.Detail("127.0.0.1:5432", 1_420.0, 3),
						new TimeBreakdownJson.Detail("10.0.0.7:8080", 300.0, 1)),
				null));
		assertThat(categories.get(1).category()).isEqualTo("lock");
		assertThat(categories.get(1).millis()).isEqualTo(100.0);
		// A category that names nothing it waited on has no list of details.
		assertThat(categories.get(2).on()).isNull();
		// Every part of the duration, said once.
		double sum = json.cpuMillis() + json.profilerMillis() + json.waitMillis() + json.unaccountedMillis();
		assertThat(sum).isEqualTo(2_000.0);

		assertThat(breakdown.summary(CpuShare::millis)).isEqualTo("CPU 60.0 ms, socket I/O 1,720 ms "
				+ "(127.0.0.1:5432 1,420 ms, 10.0.0.7:8080 300 ms), lock 100 ms (com.example.Inventory 100 ms), "
				+ "park 50.0 ms, GC pause 10.0 ms, profiler 10.0 ms, unaccounted 50.0 ms; "
				+ "2 round trips to 127.0.0.1:5432 (1,400 ms), 1 round trip to 10.0.0.7:8080 (300 ms)");
		// Round trips are the reads that waited for an answer; the write to the database
		// is not one.
		assertThat(breakdown.roundTrips()).containsExactly(
				new TimeBreakdown.RoundTrips("127.0.0.1:5432", 2, 1_400 * MS),
				new TimeBreakdown.RoundTrips("10.0.0.7:8080", 1, 300 * MS));
		assertThat(json.roundTrips()).containsExactly(
				new TimeBreakdownJson.RoundTrips("127.0.0.1:5432", 2, 1_400.0, null),
				new TimeBreakdownJson.RoundTrips("10.0.0.7:8080", 1, 300.0, null));
	}

	@Test
	void theKernelsFiguresSplitTheRestIntoWaitingForACoreAndShortWaits() {
		StackTree waits = new StackTree();
		wait(waits, WaitKind.SOCKET_READ.frameName("db:5432"), 30);
		// 200 ms on the thread: 40 ms CPU, 50 ms runnable, 110 ms blocked of which the
		// recorded socket read covers 30.
		TimeBreakdown breakdown = TimeBreakdown.of(201 * MS, 40 * MS, true, 0, 50 * MS, 110 * MS, waits, this.frames);

		assertThat(breakdown.scheduled()).isTrue();
		assertThat(breakdown.coreWaitNanos()).isEqualTo(50 * MS);
		assertThat(breakdown.coreWaitInWaitsNanos()).isZero();
		assertThat(breakdown.shortWaitNanos()).isEqualTo(80 * MS);
		assertThat(breakdown.unaccountedNanos()).isEqualTo(1 * MS);
		assertThat(breakdown.summary(CpuShare::millis)).isEqualTo("CPU 40.0 ms, waiting for a core 50.0 ms, "
				+ "socket I/O 30.0 ms (db:5432 30.0 ms), short waits 80.0 ms, unaccounted 1.0 ms; 1 round trip to db:5432 (30.0 ms)");
		TimeBreakdownJson json = breakdown.json();
		assertThat(json.cpuFrom()).isEqualTo("thread CPU clocks");
		assertThat(json.coreWaitMillis()).isEqualTo(50.0);
		assertThat(json.coreWaitInWaitsMillis()).isNull();
		assertThat(json.shortWaitMillis()).isEqualTo(80.0);
		double sum = json.cpuMillis() + json.coreWaitMillis() + json.waitMillis() + json.shortWaitMillis()
				+ json.unaccountedMillis();
		assertThat(sum).isEqualTo(201.0);
	}

	@Test
	void containerThrottlingIsAFigureOfItsOwnBesideTheParts() {
		StackTree waits = new StackTree();
		wait(waits, WaitKind.SOCKET_READ.frameName("db:5432"), 30);
		TimeBreakdown plain = TimeBreakdown.of(201 * MS, 40 * MS, true, 0, 50 * MS, 110 * MS, waits, this.frames);
		TimeBreakdown throttled = plain.withThrottling(new TimeBreakdown.Throttling(7, 85 * MS, 3_000 * MS));

		assertThat(throttled.summary(CpuShare::millis)).isEqualTo(plain.summary(CpuShare::millis)
				+ "; throttled by the container's CPU limit: 7 periods, 85.0 ms (the process, in the 3,000 ms around "
				+ "the request)");
		assertThat(throttled.unaccountedNanos()).as("the process's figure, not a part of the request's time")
			.isEqualTo(plain.unaccountedNanos());
		assertThat(throttled.coreWaitNanos()).isEqualTo(plain.coreWaitNanos());
		TimeBreakdownJson.Throttling json = throttled.json().throttling();
		assertThat(json.periods()).isEqualTo(7);
		assertThat(json.millis()).isEqualTo(85.0);
		assertThat(json.overMillis()).isEqualTo(3000.0);
		assertThat(json.text()).startsWith("throttled by the container's CPU limit: 7 periods, 85.0 ms");
		assertThat(plain.json().throttling()).isNull();
		assertThat(plain.withThrottling(null).summary(CpuShare::millis)).doesNotContain("throttled");
	}

	@Test
	void theWaitForACoreBeforeTheRequestStartedIsSaidBesideThePartsNotAmongThem() {
		StackTree waits = new StackTree();
		wait(waits, WaitKind.SOCKET_READ.frameName("db:5432"), 30);
		TimeBreakdown plain = TimeBreakdown.of(201 * MS, 40 * MS, true, 0, 50 * MS, 110 * MS, waits, this.frames);
		TimeBreakdown before = plain.withCoreWaitBefore(3 * MS);

		assertThat(before.coreWaitBeforeNanos()).isEqualTo(3 * MS);
		assertThat(before.json().coreWaitBeforeMillis()).isEqualTo(3.0);
		assertThat(before.coreWaitBeforeText(CpuShare::millis))
			.startsWith("before it started, its thread waited 3.0 ms");
		assertThat(before.unaccountedNanos()).as("outside the duration").isEqualTo(plain.unaccountedNanos());
		assertThat(before.coreWaitNanos()).isEqualTo(plain.coreWaitNanos());
		assertThat(before.withThrottling(null).coreWaitBeforeNanos()).as("kept by a copy").isEqualTo(3 * MS);
		assertThat(before.summary(CpuShare::millis)).isEqualTo(plain.summary(CpuShare::millis)
				+ "; before it started, its thread waited 3.0 ms for a core (since the thread's previous request; "
				+ "not part of the duration)");
		assertThat(plain.json().coreWaitBeforeMillis()).isNull();
		TimeBreakdown sampled = TimeBreakdown.of(100 * MS, 40 * MS, false, 0, -1, -1, waits, this.frames);
		assertThat(sampled.withCoreWaitBefore(3 * MS).coreWaitBeforeNanos())
			.as("not without the kernel's figures inside the request")
			.isNegative();
	}

	@Test
	void aRecordedWaitsOwnWaitForACoreIsNotCountedTwice() {
		StackTree waits = new StackTree();
		// A 30 ms read whose last 6 ms were spent runnable, waiting for a core: the
		// kernel
		// counts 24 ms blocked and 6 ms runnable.
		wait(waits, WaitKind.SOCKET_READ.frameName("db:5432"), 30);
		TimeBreakdown breakdown = TimeBreakdown.of(40 * MS, 10 * MS, true, 0, 6 * MS, 24 * MS, waits, this.frames);

		assertThat(breakdown.coreWaitInWaitsNanos()).isEqualTo(6 * MS);
		assertThat(breakdown.coreWaitNanos()).isZero();
		assertThat(breakdown.shortWaitNanos()).isZero();
		assertThat(breakdown.unaccountedNanos()).isZero();
		assertThat(breakdown.overlapNanos()).as("nothing counted twice").isZero();
		assertThat(breakdown.json().coreWaitInWaitsMillis()).isEqualTo(6.0);
	}

	/**
	 * The kernel's run-queue figure read without the CPU clocks: the wait for a core is
	 * stated beside a CPU time from samples; the time blocked is then the threads' time
	 * less that estimate, good enough to tell what of the wait for a core recorded waits
	 * hold, not to pass its error off as short waits.
	 */
	@Test
	void withCpuFromSamplesTheWaitForACoreIsStatedAndShortWaitsAreNot() {
		TimeBreakdown sampled = TimeBreakdown.of(100 * MS, 40 * MS, false, 0, 50 * MS, 10 * MS, new StackTree(),
				this.frames);
		assertThat(sampled.scheduled()).isTrue();
		assertThat(sampled.coreWaitNanos()).isEqualTo(50 * MS);
		assertThat(sampled.shortWaitsMeasured()).isFalse();
		assertThat(sampled.shortWaitNanos()).isZero();
		assertThat(sampled.unaccountedNanos()).as("short waits and the CPU estimate's error").isEqualTo(10 * MS);
		assertThat(sampled.json().coreWaitMillis()).isEqualTo(50.0);
		assertThat(sampled.json().shortWaitMillis()).isNull();
		assertThat(sampled.summary(CpuShare::millis)).contains("waiting for a core 50.0 ms").doesNotContain("short");

		// A 30 ms read whose last 6 ms were spent runnable: by the CPU estimate the
		// threads were blocked 24 ms, so 6 ms of the wait for a core is in the read.
		StackTree waits = new StackTree();
		wait(waits, WaitKind.SOCKET_READ.frameName("db:5432"), 30);
		TimeBreakdown waited = TimeBreakdown.of(40 * MS, 10 * MS, false, 0, 6 * MS, 24 * MS, waits, this.frames);
		assertThat(waited.coreWaitInWaitsNanos()).isEqualTo(6 * MS);
		assertThat(waited.coreWaitNanos()).isZero();
		assertThat(waited.unaccountedNanos()).isZero();
		assertThat(waited.overlapNanos()).isZero();
	}

	@Test
	void withoutTheKernelsFiguresNothingIsSaidOfThem() {
		TimeBreakdown unread = TimeBreakdown.of(100 * MS, 40 * MS, true, 0, -1, -1, null, this.frames);
		assertThat(unread.scheduled()).isFalse();
		assertThat(unread.unaccountedNanos()).isEqualTo(60 * MS);
	}

	@Test
	void withoutWaitsRecordedTheTimeBlockedIsOffCpuWaits() {
		TimeBreakdown breakdown = TimeBreakdown.of(100 * MS, 40 * MS, true, 0, 10 * MS, 50 * MS, null, this.frames);
		assertThat(breakdown.shortWaitNanos()).isEqualTo(50 * MS);
		assertThat(breakdown.shortWaitsName()).isEqualTo("off-CPU waits");
		assertThat(breakdown.summary(CpuShare::millis)).contains("off-CPU waits 50.0 ms");
	}

	@Test
	void waitFramesKeepTheirWholeNameWhereNamesAreShortened() {
		assertThat(FrameNames.shortName("[socket read 127.0.0.1:5432]")).isEqualTo("[socket read 127.0.0.1:5432]");
		assertThat(FrameNames.shortName("com.example.Repo.query")).isEqualTo("Repo.query");
	}

	@Test
	void peersBeyondTheFirstFewAreAddedUp() {
		StackTree waits = new StackTree();
		for (int peer = 1; peer <= 5; peer++) {
			wait(waits, WaitKind.SOCKET_READ.frameName("10.0.0." + peer + ":80"), peer * 10);
		}
		WaitCategory socket = TimeBreakdown.of(500 * MS, 0, 0, waits, this.frames).waits().get(0);
		assertThat(socket.on()).extracting(WaitCategory.Detail::detail)
			.containsExactly("10.0.0.5:80", "10.0.0.4:80", "10.0.0.3:80");
		assertThat(socket.others()).isEqualTo(new WaitCategory.Detail("2 others", 30 * MS, 2));
		assertThat(socket.nanos()).isEqualTo(150 * MS);
	}

	@Test
	void partsBeyondTheDurationAreSaidNotSubtracted() {
		StackTree waits = new StackTree();
		wait(waits, WaitKind.SLEEP.frameName(null), 80);
		TimeBreakdown breakdown = TimeBreakdown.of(100 * MS, 50 * MS, 0, waits, this.frames);
		assertThat(breakdown.unaccountedNanos()).isZero();
		assertThat(breakdown.overlapNanos()).isEqualTo(30 * MS);
		TimeBreakdownJson json = breakdown.json();
		assertThat(json.unaccountedMillis()).isEqualTo(0.0);
		assertThat(json.overlapMillis()).isEqualTo(30.0);
		assertThat(json.note()).isEqualTo("CPU and waits add up to 30.0 ms more than the duration: the request's "
				+ "work ran or waited on several threads at once, or the CPU estimate from samples is above the truth");
	}

	@Test
	void withoutWaitsRecordedAllOffCpuTimeIsUnaccounted() {
		TimeBreakdown breakdown = TimeBreakdown.of(497 * MS, 60 * MS, 0, null, this.frames);
		assertThat(breakdown.waitsRecorded()).isFalse();
		assertThat(breakdown.mostlyWaiting()).isFalse();
		TimeBreakdownJson json = breakdown.json();
		assertThat(json.waitsRecorded()).isFalse();
		assertThat(json.unaccountedMillis()).isEqualTo(437.0);
		assertThat(json.waits()).isNull();
		assertThat(json.waitMillis()).isNull();
		assertThat(json.profilerMillis()).isNull();
	}

	@Test
	void workGoneElsewhereWithoutItsContextIsNamedWhereASwitchIsOff() {
		String off = "spring.task.execution.propagate-context is false (set in application.properties)";
		long interval = 20 * MS;
		// Parked 290 ms of 300 waiting for an @Async method's result, 2 ms of CPU.
		StackTree parked = new StackTree();
		wait(parked, WaitKind.PARK.frameName(null), 290);
		TimeBreakdown waitingForIt = TimeBreakdown.of(300 * MS, 2 * MS, 0, parked, this.frames)
			.withHandOff(off, interval);
		assertThat(waitingForIt.handOffNote()).isEqualTo("99 % of this request's time is unaccounted for or parked, "
				+ "with 2.0 ms of CPU of its own: its work likely ran on another thread without its context, because "
				+ off + ".");
		assertThat(waitingForIt.json().handOff()).isEqualTo(waitingForIt.handOffNote());
		// Returned at once (a reactive handler): all of it unaccounted, no CPU sampled.
		assertThat(
				TimeBreakdown.of(300 * MS, 0, 0, new StackTree(), this.frames).withHandOff(off, interval).handOffNote())
			.startsWith("100 % of this request's time is unaccounted for or parked, with no CPU of its own");
		// No switch known to be off: the same reading says nothing.
		assertThat(
				TimeBreakdown.of(300 * MS, 2 * MS, 0, parked, this.frames).withHandOff(null, interval).json().handOff())
			.isNull();
		// Work of its own on a CPU (40 ms of 300), too short to have samples (80 ms, 4
		// intervals), waiting on a database rather than parked, or CPU not sampled: no
		// note.
		assertThat(TimeBreakdown.of(300 * MS, 40 * MS, 0, parked, this.frames).withHandOff(off, interval).handOffNote())
			.isNull();
		assertThat(
				TimeBreakdown.of(80 * MS, 0, 0, new StackTree(), this.frames).withHandOff(off, interval).handOffNote())
			.isNull();
		// Its own 250 ms of CPU in 4.25 s on a machine short of cores (seen on a loaded
		// build machine): 6 % of its duration, but 12 samples' worth.
		assertThat(TimeBreakdown.of(4_250 * MS, 250 * MS, 0, new StackTree(), this.frames)
			.withHandOff(off, interval)
			.handOffNote()).isNull();
		StackTree database = new StackTree();
		wait(database, WaitKind.SOCKET_READ.frameName("db:5432"), 290);
		assertThat(
				TimeBreakdown.of(300 * MS, 2 * MS, 0, database, this.frames).withHandOff(off, interval).handOffNote())
			.isNull();
		assertThat(TimeBreakdown.of(300 * MS, -1, 0, parked, this.frames).withHandOff(off, interval).handOffNote())
			.isNull();
		// Just over and just under half of the duration elsewhere.
		StackTree half = new StackTree();
		wait(half, WaitKind.SOCKET_READ.frameName("db:5432"), 140);
		assertThat(TimeBreakdown.of(300 * MS, 10 * MS, 0, half, this.frames).withHandOff(off, interval).handOffNote())
			.startsWith("50 % of this request's time");
		wait(half, WaitKind.SOCKET_READ.frameName("db:5432"), 10);
		assertThat(TimeBreakdown.of(300 * MS, 10 * MS, 0, half, this.frames).withHandOff(off, interval).handOffNote())
			.isNull();
	}

	private void wait(StackTree waits, String leaf, long millis) {
		waits.add(new int[] { this.query, this.frames.intern(leaf, FrameKind.WAIT) }, millis * MS, 1);
	}

}
