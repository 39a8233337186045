package dev.spanprofile;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.zip.GZIPInputStream;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.pprof.PprofProfile;
import dev.spanprofile.render.pprof.proto.PprofProtos.Profile;
import dev.spanprofile.render.pprof.proto.PprofProtos.Sample;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.spanprofile.Contention.enterContendedMonitor;
import static dev.spanprofile.Contention.holdFor;
import static dev.spanprofile.Contention.leastRecorded;
import static dev.spanprofile.Contention.lockContendedReentrantLock;
import static dev.spanprofile.Contention.whileHeld;
import static dev.spanprofile.Contention.whileMonitorHeld;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Allocation and lock samples go to the span active on the thread, like CPU samples,
 * weighted by bytes and by nanoseconds waited. Real async-profiler runs.
 */
class AllocationAndLockAttributionTest {

	/**
	 * Small enough for a few thousand samples per test, so that the bounds below are
	 * several deviations wide.
	 */
	private static final long ALLOC_INTERVAL = 32 * 1024;

	private static final int CHUNK = 1024;

	/** Contended monitor entries in the blocked-request test. */
	private static final int ENTRIES = 8;

	/** Three dump intervals at the default of one second. */
	private static final long LONG_HOLD_MILLIS = 3000;

	static volatile Object escape;

	private static ProfilingHarness harness(ProfilingEvent... events) {
		return harness(EngineChoice.ASYNC_PROFILER, events);
	}

	/**
	 * async-profiler drops every event recorded while it writes a chunk, a lock wait
	 * whose end falls there included (AsyncProfilerDumpLossTest: a dump takes a few
	 * milliseconds, but a loaded machine stalls the dumping thread with the locks held
	 * now and then, up to 3 % of events lost at one dump a second, a fifth or more at 50
	 * ms). Dumps far apart keep that loss out of what these tests measure, the join; the
	 * collects the tests ask for happen after the workload.
	 */
	private static ProfilingHarness harness(EngineChoice engine, ProfilingEvent... events) {
		return harness(engine, Duration.ofSeconds(30), events);
	}

	private static ProfilingHarness harness(EngineChoice engine, Duration dumpInterval, ProfilingEvent... events) {
		return new ProfilingHarness(false, 1000, engine, Set.of(events), Duration.ofMillis(10), ALLOC_INTERVAL,
				dumpInterval, Function.identity());
	}

	@Test
	void allocatingRequestGetsItsBytesInTheAllocatingMethod() {
		long bytes = 96L * 1024 * 1024;
		// alloc alone: async-profiler runs without any timer-driven event.
		try (ProfilingHarness harness = harness(ProfilingEvent.ALLOC)) {
			Span span = harness.tracer.spanBuilder("allocating").setNoParent().startSpan();
			try (Scope scope = span.makeCurrent()) {
				allocAlphaHot(bytes);
			}
			finally {
				span.end();
			}
			harness.collect();
			SpanRecord record = harness.record(span.getSpanContext().getSpanId());
			long total = record.ownSamples(SampleKind.ALLOC).totalSamples();
			long inMethod = harness.samplesContaining(record.ownSamples(SampleKind.ALLOC), "allocAlphaHot")
				.get("allocAlphaHot");
			System.out.printf("alloc: %d of %d bytes in allocAlphaHot, %d allocated (%.1f %%)%n", inMethod, total,
					bytes, 100.0 * total / bytes);
			assertThat(inMethod).as("bytes in the allocating method of the span's %d", total)
				.isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
			harness.assertGotWhatWasTaken(record, SampleKind.ALLOC, "allocAlphaHot");
			// Each sample stands for about ALLOC_INTERVAL bytes; the count of samples
			// varies like a Poisson count, so four deviations above. Below,
			// async-profiler takes about 2.4 % fewer samples than bytes / interval
			// (97.6 % on average over 11 runs, cause not found; the join loses none of
			// them, see assertGotWhatWasTaken), which put one run in eleven under the
			// four deviations: the floor is the 90 % the issue asks of a span's bytes.
			double expectedSamples = (double) bytes / ALLOC_INTERVAL;
			assertThat(total / (double) ALLOC_INTERVAL)
				.as("allocation samples (bytes / interval) vs expected %.1f", expectedSamples)
				.isBetween(0.9 * expectedSamples, expectedSamples + 4 * Math.sqrt(expectedSamples));
		}
	}

	@ParameterizedTest
	@EnumSource(value = EngineChoice.class, names = { "ASYNC_PROFILER", "JFR" })
	void blockedRequestGetsItsWaitInTheBlockedMethod(EngineChoice engine) throws Exception {
		Object monitor = new Object();
		try (ProfilingHarness harness = harness(engine, ProfilingEvent.CPU, ProfilingEvent.LOCK)) {
			Span span = harness.tracer.spanBuilder("blocked").setNoParent().startSpan();
			long waited = 0;
			int surelyContended = 0;
			try (Scope scope = span.makeCurrent()) {
				for (int i = 0; i < ENTRIES; i++) {
					long wait = whileMonitorHeld(monitor, 50, () -> enterContendedMonitor(monitor));
					waited += wait;
					// An entry that took a millisecond found the monitor held; one that
					// came after the holder let go (a thread slow to wake on a loaded
					// machine) is no contention at all.
					surelyContended += (wait >= 1_000_000) ? 1 : 0;
				}
			}
			finally {
				span.end();
			}
			harness.collect();
			SpanRecord record = harness.record(span.getSpanContext().getSpanId());
			long total = record.ownSamples(SampleKind.LOCK).totalSamples();
			long inMethod = harness.samplesContaining(record.ownSamples(SampleKind.LOCK), "enterContendedMonitor")
				.get("enterContendedMonitor");
			System.out.printf("lock %s: %d of %d ns in enterContendedMonitor, waited %d ns (%.1f %%)%n", engine,
					inMethod, total, waited, 100.0 * total / waited);
			assertThat(inMethod).as("wait in the blocked method of the span's %d ns", total)
				.isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
			harness.assertGotWhatWasTaken(record, SampleKind.LOCK, "enterContendedMonitor");
			// Every contended entry is recorded (threshold 0) with its own duration: the
			// sum is the wait the thread measured around the same entries, less the
			// moments between the clock reads and the wait itself.
			assertThat((double) inMethod).as("recorded wait vs measured %d ns", waited)
				.isBetween(leastRecorded(waited, ENTRIES), (double) waited);
			// pprof counts the waits beside their delay: one per contended entry, never
			// more than the entries.
			long[] contentionsAndDelay = contentionsAndDelay(record.ownSamples(SampleKind.LOCK), harness);
			assertThat(contentionsAndDelay[0]).as("contentions in pprof")
				.isBetween((long) surelyContended, (long) ENTRIES);
			assertThat(contentionsAndDelay[1]).as("delay in pprof").isEqualTo(total);
		}
	}

	/**
	 * Above 0, async-profiler's lock threshold is an interval over the waits added up: a
	 * wait is recorded each time the total crosses another multiple of it, so most waits
	 * shorter than it go unrecorded. Each recorded wait then stands for the threshold,
	 * and the span's lock weight stays what it waited.
	 */
	@Test
	void shortWaitsSampledAboveAThresholdStillAddUpToTheWait() throws Exception {
		Duration threshold = Duration.ofMillis(20);
		Object monitor = new Object();
		try (ProfilingHarness harness = new ProfilingHarness(false, 1000, EngineChoice.ASYNC_PROFILER,
				Set.of(ProfilingEvent.CPU, ProfilingEvent.LOCK), Duration.ofMillis(10), ALLOC_INTERVAL, threshold,
				Duration.ofSeconds(30), Function.identity())) {
			Span span = harness.tracer.spanBuilder("briefly blocked").setNoParent().startSpan();
			long waited = 0;
			try (Scope scope = span.makeCurrent()) {
				for (int i = 0; i < 300; i++) {
					waited += whileMonitorHeld(monitor, 5, () -> enterContendedMonitor(monitor));
				}
			}
			finally {
				span.end();
			}
			harness.collect();
			SpanRecord record = harness.record(span.getSpanContext().getSpanId());
			long total = record.ownSamples(SampleKind.LOCK).totalSamples();
			System.out.printf("lock above %s: %d ns recorded, %d waits, waited %d ns (%.1f %%)%n", threshold, total,
					record.ownEventCount(SampleKind.LOCK), waited, 100.0 * total / waited);
			// The counter is deterministic: off by the part of an interval before the
			// first and after the last crossing, and by waits of other threads in the JVM
			// advancing the same counter. Weighted by their own length instead (about 5
			// ms), the recorded waits would add up to a quarter of the wait.
			assertThat((double) total).as("recorded wait vs measured %d ns", waited)
				.isBetween(0.85 * waited, 1.15 * waited);
			assertThat(record.ownEventCount(SampleKind.LOCK)).as("waits recorded of 300")
				.isBetween((long) (0.85 * waited / threshold.toNanos()),
						(long) (1.15 * waited / threshold.toNanos()) + 1);
		}
	}

	/**
	 * @return the sums of the two sample values of the span's lock profile in pprof
	 */
	private static long[] contentionsAndDelay(StackTree lockSamples, ProfilingHarness harness) throws IOException {
		byte[] gzip = PprofProfile.gzip(List.of(new PprofProfile.SpanSamples("t", "s", "blocked", lockSamples)),
				harness.profiler.store().frames(), "lock", 0, 0, 1);
		Profile profile;
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
			profile = Profile.parseFrom(in);
		}
		List<String> strings = profile.getStringTableList();
		assertThat(profile.getSampleTypeList()).extracting((type) -> strings.get((int) type.getType()))
			.containsExactly("contentions", "delay");
		long[] sums = new long[2];
		for (Sample sample : profile.getSampleList()) {
			sums[0] += sample.getValue(0);
			sums[1] += sample.getValue(1);
		}
		return sums;
	}

	/**
	 * Flight Recorder throttles allocation samples by rate, each weighted by the bytes
	 * its thread allocated since the thread's previous sample: the bytes land in the
	 * allocating method, and a span's total is what the thread allocated from its last
	 * sample before the span to its last sample in the span. The first stretch (allocated
	 * elsewhere, before the span) is carried by the span's first sample; the last (after
	 * the span's last sample) goes to the thread's next sample, after the span. The
	 * throttle spreads its samples over time in windows of about 200 ms, not over bytes,
	 * so that last stretch can be most of a span: a loop that the JIT compiles late
	 * allocates most of its bytes at the end, and a CI run saw 46 % of 4 GB. The test
	 * therefore logs when it allocated what and checks the total against the stretch
	 * between those two samples.
	 */
	@Test
	void flightRecorderAllocationSamplesLandInTheAllocatingMethod() {
		allocBetaHot(256L * 1024 * 1024);
		try (ProfilingHarness harness = harness(EngineChoice.JFR, ProfilingEvent.CPU, ProfilingEvent.ALLOC)) {
			harness.keepSampleTimes(SampleKind.ALLOC, Thread.currentThread());
			AllocationLog log = new AllocationLog();
			log.allocateFor(Duration.ofMillis(500), AllocationAndLockAttributionTest::allocBetaHot);
			Span span = harness.tracer.spanBuilder("allocating").setNoParent().startSpan();
			long start = System.nanoTime();
			long bytes;
			try (Scope scope = span.makeCurrent()) {
				bytes = log.allocateFor(Duration.ofMillis(1500), AllocationAndLockAttributionTest::allocAlphaHot);
			}
			finally {
				span.end();
			}
			long end = System.nanoTime();
			harness.collect();
			SpanRecord record = harness.record(span.getSpanContext().getSpanId());
			long total = record.ownSamples(SampleKind.ALLOC).totalSamples();
			Map<String, Long> inMethods = harness.samplesContaining(record.ownSamples(SampleKind.ALLOC),
					"allocAlphaHot", "allocBetaHot");
			long inMethod = inMethods.get("allocAlphaHot");
			long lastBefore = Long.MIN_VALUE;
			long lastWithin = Long.MIN_VALUE;
			for (long sampled : harness.sampleTimes()) {
				if (sampled < start) {
					lastBefore = Math.max(lastBefore, sampled);
				}
				else if (sampled <= end) {
					lastWithin = Math.max(lastWithin, sampled);
				}
			}
			System.out.printf(
					"alloc jfr: %s of %d bytes, %d allocated (%.1f %%), %.0f MB/s, last sample %d ms before"
							+ " the end%n",
					inMethods, total, bytes, 100.0 * total / bytes, bytes * 1e3 / (end - start),
					(end - lastWithin) / 1_000_000);
			assertThat(inMethod).as("bytes in the allocating method of the span's %d", total)
				.isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
			harness.assertGotWhatWasTaken(record, SampleKind.ALLOC, "allocAlphaHot");
			// The engine drops each thread's first sample (it carries what the thread
			// allocated before profiling); half a second of allocating gives the thread a
			// later one before the span.
			assertThat(lastBefore).as("an allocation sample on the thread before the span")
				.isNotEqualTo(Long.MIN_VALUE);
			if (lastWithin == Long.MIN_VALUE) {
				assertThat(total).as("bytes of a span without samples").isZero();
				return;
			}
			// The log counts whole 1 MiB calls and Flight Recorder whole retired TLABs: a
			// few MiB either way.
			long expected = log.bytesUpTo(lastWithin) - log.bytesUpTo(lastBefore);
			long slack = (long) (0.02 * expected) + 8L * 1024 * 1024;
			assertThat(total)
				.as("bytes the span's samples stand for, of %d allocated between the thread's last"
						+ " sample before the span and its last in it", expected)
				.isBetween(expected - slack, expected + slack);
		}
	}

	/**
	 * Waits longer than the collector keeps thread timelines (two dump intervals), with
	 * the default one-second dumps: a monitor and a {@code ReentrantLock}, each held
	 * three seconds by another thread while the span waits, so that several collection
	 * cycles run during each wait. The timelines keep the state in effect at their oldest
	 * kept point, and a waiting thread has no change points, so the join itself holds;
	 * what such a wait can break is the collector's promise that a sample stamped before
	 * a completed cycle was delivered in it.
	 */
	@ParameterizedTest
	@EnumSource(value = EngineChoice.class, names = { "ASYNC_PROFILER", "JFR" })
	void waitsSpanningSeveralDumpsStayWithTheirSpan(EngineChoice engine) throws Exception {
		Object monitor = new Object();
		ReentrantLock lock = new ReentrantLock();
		try (ProfilingHarness harness = new ProfilingHarness(false, 1000, engine,
				Set.of(ProfilingEvent.CPU, ProfilingEvent.LOCK), Duration.ofMillis(10), ALLOC_INTERVAL,
				Duration.ofSeconds(1), Function.identity())) {
			Span span = harness.tracer.spanBuilder("blocked-long").setNoParent().startSpan();
			long monitorWait;
			long parkWait;
			try (Scope scope = span.makeCurrent()) {
				monitorWait = whileHeld((held) -> {
					synchronized (monitor) {
						held.run();
						holdPastDumps(harness);
					}
				}, () -> enterContendedMonitor(monitor));
				parkWait = whileHeld((held) -> {
					lock.lock();
					try {
						held.run();
						holdPastDumps(harness);
					}
					finally {
						lock.unlock();
					}
				}, () -> lockContendedReentrantLock(lock));
			}
			finally {
				span.end();
			}
			harness.collect();
			SpanRecord record = harness.record(span.getSpanContext().getSpanId());
			Map<String, Long> inMethods = harness.samplesContaining(record.ownSamples(SampleKind.LOCK),
					"enterContendedMonitor", "lockContendedReentrantLock");
			System.out.printf(
					"long waits %s: %s ns, waited %d ns on the monitor, %d ns on the lock; late by thread"
							+ " %s, this thread %d%n",
					engine, inMethods, monitorWait, parkWait, harness.lateByThread(SampleKind.LOCK),
					Thread.currentThread().getId());
			// One event per wait, weighted by its duration: the measured wait less the
			// clock reads around it.
			assertThat((double) inMethods.get("enterContendedMonitor"))
				.as("monitor wait vs measured %d ns", monitorWait)
				.isBetween(0.9 * monitorWait, 1.0 * monitorWait);
			assertThat((double) inMethods.get("lockContendedReentrantLock")).as("park vs measured %d ns", parkWait)
				.isBetween(0.9 * parkWait, 1.0 * parkWait);
			// A collect vouches that every sample stamped before the time it returns is
			// in (spans that ended before it are complete): waits in progress at a dump
			// must not arrive later stamped before that time. Stamped at their start, the
			// two waits above arrived seconds late with either engine.
			if (engine == EngineChoice.ASYNC_PROFILER) {
				assertThat(harness.late(SampleKind.LOCK)).as("lock wait delivered after a collect vouched for its time")
					.isZero();
			}
			else {
				// Flight Recorder flushes each thread's event buffer on its own schedule,
				// so a wait of some other thread can still come after a flush that
				// covered its time: 1.3 ms once, parks of another thread of 50 ms (the
				// collector's tick period) and once 100 ms, which alone broke a bound
				// taken over all threads. The long waits under test, on this thread, must
				// not come late.
				long waiter = Thread.currentThread().getId();
				assertThat((double) harness.lateByThread(SampleKind.LOCK).getOrDefault(waiter, 0L))
					.as("lock wait of thread %d delivered after a collect vouched for its time (late by thread: %s)",
							waiter, harness.lateByThread(SampleKind.LOCK))
					.isLessThan(0.01 * (monitorWait + parkWait));
			}
		}
	}

	/**
	 * Hold for {@link #LONG_HOLD_MILLIS}, then until a collection cycle has just
	 * finished: async-profiler drops an event that ends while it writes a chunk (see
	 * AsyncProfilerDumpLossTest), and a release right after a dump ends the wait a dump
	 * interval away from the next one.
	 */
	private static void holdPastDumps(ProfilingHarness harness) {
		holdFor(LONG_HOLD_MILLIS);
		long seen = harness.collects();
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> harness.collects() > seen);
	}

	@Test
	void twoSpansAllocatingInTurnsOnOneThreadKeepTheirOwnBytes() {
		try (ProfilingHarness harness = harness(ProfilingEvent.CPU, ProfilingEvent.ALLOC)) {
			Span alpha = harness.tracer.spanBuilder("alloc-alpha").setNoParent().startSpan();
			Span beta = harness.tracer.spanBuilder("alloc-beta").setNoParent().startSpan();
			long seed = System.nanoTime();
			Random random = new Random(seed);
			AtomicLong alphaBytes = new AtomicLong();
			AtomicLong betaBytes = new AtomicLong();
			long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
			boolean alphaTurn = true;
			while (System.nanoTime() < deadline) {
				// A few milliseconds' worth of allocation per turn, of varying length.
				long bytes = (1 + random.nextInt(4)) * 256L * 1024;
				try (Scope scope = (alphaTurn ? alpha : beta).makeCurrent()) {
					if (alphaTurn) {
						allocAlphaHot(bytes);
						alphaBytes.addAndGet(bytes);
					}
					else {
						allocBetaHot(bytes);
						betaBytes.addAndGet(bytes);
					}
				}
				alphaTurn = !alphaTurn;
			}
			alpha.end();
			beta.end();
			harness.collect();
			SpanRecord alphaRecord = harness.record(alpha.getSpanContext().getSpanId());
			SpanRecord betaRecord = harness.record(beta.getSpanContext().getSpanId());
			Map<String, Long> inAlpha = harness.samplesContaining(alphaRecord.ownSamples(SampleKind.ALLOC),
					"allocAlphaHot", "allocBetaHot");
			Map<String, Long> inBeta = harness.samplesContaining(betaRecord.ownSamples(SampleKind.ALLOC),
					"allocAlphaHot", "allocBetaHot");
			long right = inAlpha.get("allocAlphaHot") + inBeta.get("allocBetaHot");
			long wrong = inAlpha.get("allocBetaHot") + inBeta.get("allocAlphaHot");
			System.out.printf(
					"alloc switching (seed %d): alpha %s (allocated %d), beta %s (allocated %d), wrong %d of "
							+ "%d bytes%n",
					seed, inAlpha, alphaBytes.get(), inBeta, betaBytes.get(), wrong, right + wrong);
			assertThat(right).as("bytes sampled: enough samples for a 1 %% bound to mean something")
				.isGreaterThanOrEqualTo(500 * ALLOC_INTERVAL);
			// Allocation samples are taken on the allocating thread itself, at the
			// allocation: only the clock reads around a switch can put one on the wrong
			// side.
			assertThat(wrong).as("bytes in the other span's method").isLessThanOrEqualTo(right / 100);
			harness.assertGotWhatWasTaken(alphaRecord, SampleKind.ALLOC, "allocAlphaHot");
			harness.assertGotWhatWasTaken(betaRecord, SampleKind.ALLOC, "allocBetaHot");
		}
	}

	/**
	 * Allocates in calls of 1 MiB and notes when each call returned and how much had been
	 * allocated by then.
	 */
	private static final class AllocationLog {

		private final List<long[]> calls = new ArrayList<>();

		private long allocated;

		/**
		 * @return the bytes allocated, in calls of 1 MiB until {@code duration} has
		 * passed
		 */
		long allocateFor(Duration duration, LongConsumer allocator) {
			long deadline = System.nanoTime() + duration.toNanos();
			long before = this.allocated;
			while (System.nanoTime() < deadline) {
				allocator.accept(1024 * 1024);
				this.allocated += 1024 * 1024;
				this.calls.add(new long[] { System.nanoTime(), this.allocated });
			}
			return this.allocated - before;
		}

		/**
		 * @return the bytes allocated by calls that had returned at
		 * {@code monotonicNanos}
		 */
		long bytesUpTo(long monotonicNanos) {
			long bytes = 0;
			for (long[] call : this.calls) {
				if (call[0] > monotonicNanos) {
					break;
				}
				bytes = call[1];
			}
			return bytes;
		}

	}

	static void allocAlphaHot(long bytes) {
		for (long done = 0; done < bytes; done += CHUNK + 16) {
			escape = new byte[CHUNK];
		}
	}

	static void allocBetaHot(long bytes) {
		for (long done = 0; done < bytes; done += CHUNK + 16) {
			escape = new long[CHUNK / 8];
		}
	}

}
