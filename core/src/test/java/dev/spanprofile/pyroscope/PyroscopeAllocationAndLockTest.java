package dev.spanprofile.pyroscope;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.tracking.MonotonicEpoch;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static dev.spanprofile.Contention.enterContendedMonitor;
import static dev.spanprofile.Contention.leastRecorded;
import static dev.spanprofile.Contention.lockContendedReentrantLock;
import static dev.spanprofile.Contention.whileLockHeld;
import static dev.spanprofile.Contention.whileMonitorHeld;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the Pyroscope agent sampling allocations and contended locks beside CPU, the local
 * view joins them to spans like the async-profiler engine does, and the uploaded
 * recording carries them with the span's label.
 * <p>
 * The agent stops its profiler to cut a recording every upload interval: what a thread
 * does in that gap is not sampled at all. The work runs right after one cut, with the
 * next one far away, so the loss stays out of what is measured here: the join and the
 * labels.
 */
class PyroscopeAllocationAndLockTest {

	/**
	 * Small enough for a few thousand samples, so that the bounds below are several
	 * deviations wide.
	 */
	private static final long ALLOC_INTERVAL = 32 * 1024;

	private static final Duration UPLOAD_INTERVAL = Duration.ofSeconds(5);

	private static final int CHUNK = 1024;

	static volatile Object escape;

	/** The agent adds allocation sampling to either kind of timer event. */
	@ParameterizedTest
	@EnumSource(value = ProfilingEvent.class, names = { "CPU", "WALL" })
	void allocatingSpanGetsItsBytesInTheAllocatingMethodLocallyAndUploaded(ProfilingEvent timer) throws Exception {
		long bytes = 96L * 1024 * 1024;
		try (IngestReceiver receiver = new IngestReceiver();
				PyroscopeHarness harness = new PyroscopeHarness(receiver.address(), false, 8, 3,
						Set.of(timer, ProfilingEvent.ALLOC), ALLOC_INTERVAL, Duration.ZERO, UPLOAD_INTERVAL)) {
			long cut = awaitCut(harness);
			Span span = harness.tracer.spanBuilder("allocating").setNoParent().startSpan();
			try (Scope scope = span.makeCurrent()) {
				allocPyroscopeHot(bytes);
			}
			finally {
				span.end();
			}
			long workEnded = workEndedBeforeNextCut(harness, cut);
			SpanRecord record = stored(harness, span);
			StackTree allocations = record.ownSamples(SampleKind.ALLOC);
			long total = allocations.totalSamples();
			long inMethod = weightIn(harness, allocations, "allocPyroscopeHot");
			System.out.printf("pyroscope %s,alloc: %d of %d bytes in allocPyroscopeHot, %d allocated (%.1f %%)%n",
					timer.id(), inMethod, total, bytes, 100.0 * total / bytes);
			assertThat(inMethod).as("bytes in the allocating method of the span's %d", total)
				.isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
			// Each sample stands for ALLOC_INTERVAL bytes and their count varies like a
			// Poisson count.
			assertAboutExpected("allocation samples", Math.round(total / (double) ALLOC_INTERVAL),
					(double) bytes / ALLOC_INTERVAL);

			List<IngestReceiver.Event> uploaded = new ArrayList<>();
			Map<Long, String> strings = new HashMap<>();
			awaitUploaded(receiver, workEnded, uploaded, strings, "jdk.ObjectAllocationInNewTLAB",
					"jdk.ObjectAllocationOutsideTLAB");
			long spanId = SpanLabels.parseHex(span.getSpanContext().getSpanId(), 0, 16);
			List<IngestReceiver.Event> inAllocating = uploaded.stream()
				.filter((e) -> e.in("allocPyroscopeHot"))
				.toList();
			long labelled = weight(inAllocating.stream().filter((e) -> e.spanId() == spanId).toList());
			System.out.printf("pyroscope alloc upload: %d of %d bytes in allocPyroscopeHot labelled with the span; "
					+ "local view %d%n", labelled, weight(inAllocating), inMethod);
			assertThat(inAllocating).allMatch(IngestReceiver.Event::labelled);
			// The count of events, not their weight, shows that the agent samples every
			// alloc-interval bytes.
			assertAboutExpected("uploaded allocation events", inAllocating.size(), (double) bytes / ALLOC_INTERVAL);
			assertThat(labelled).as("uploaded bytes in the allocating method labelled with the span")
				.isGreaterThanOrEqualTo((long) Math.ceil(0.95 * weight(inAllocating)));
			// One recording, parsed twice: the local join and the agent's label agree.
			assertThat((double) inMethod).isBetween(0.95 * labelled, 1.05 * labelled);
			long spanName = inAllocating.stream()
				.filter((e) -> e.spanId() == spanId)
				.findFirst()
				.orElseThrow()
				.spanName();
			assertThat(strings.get(spanName)).isEqualTo("allocating");

			// The local parse of that recording allocates too, and is sampled into the
			// next one: at more than the alloc-interval per event parsed each recording
			// would be bigger than the last (converting every event's stack cost 3.3-3.6
			// times; once per chunk, 6-24 %). Half keeps a margin from that runaway.
			long parsedBytes = weight(uploaded);
			int uploadsSoFar = receiver.accepted().size();
			PyroscopeHarness.await("the next upload", UPLOAD_INTERVAL.plusSeconds(10), () -> {
				harness.profiler.collectNow();
				return receiver.accepted().size() > uploadsSoFar;
			});
			long parseBytes = 0;
			for (IngestReceiver.Upload upload : receiver.accepted().subList(uploadsSoFar, receiver.accepted().size())) {
				parseBytes += weight(upload.events("jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB")
					.stream()
					.filter((e) -> e.inClass(AgentRecordingParser.class.getName()))
					.toList());
			}
			System.out.printf("pyroscope %s,alloc: parsing a recording of %d sampled bytes allocated %d bytes%n",
					timer.id(), parsedBytes, parseBytes);
			assertThat(parseBytes).isLessThanOrEqualTo(parsedBytes / 2);
		}
	}

	@Test
	void blockedSpanGetsItsWaitInTheBlockedMethodLocallyAndUploaded() throws Exception {
		Object monitor = new Object();
		try (IngestReceiver receiver = new IngestReceiver();
				PyroscopeHarness harness = new PyroscopeHarness(receiver.address(), false, 8, 3,
						Set.of(ProfilingEvent.CPU, ProfilingEvent.LOCK), ALLOC_INTERVAL, Duration.ZERO,
						UPLOAD_INTERVAL)) {
			long cut = awaitCut(harness);
			Span span = harness.tracer.spanBuilder("blocked").setNoParent().startSpan();
			ReentrantLock lock = new ReentrantLock();
			long waited = 0;
			long parked = 0;
			try (Scope scope = span.makeCurrent()) {
				for (int i = 0; i < 8; i++) {
					waited += whileMonitorHeld(monitor, 50, () -> enterContendedMonitor(monitor));
				}
				for (int i = 0; i < 4; i++) {
					parked += whileLockHeld(lock, 50, () -> lockContendedReentrantLock(lock));
				}
			}
			finally {
				span.end();
			}
			long workEnded = workEndedBeforeNextCut(harness, cut);
			SpanRecord record = stored(harness, span);
			StackTree locks = record.ownSamples(SampleKind.LOCK);
			long total = locks.totalSamples();
			long inMethod = weightIn(harness, locks, "enterContendedMonitor");
			long inLockMethod = weightIn(harness, locks, "lockContendedReentrantLock");
			System.out.printf(
					"pyroscope lock: %d ns in enterContendedMonitor (waited %d ns), %d ns in lockContendedReentrantLock "
							+ "(waited %d ns), of %d ns%n",
					inMethod, waited, inLockMethod, parked, total);
			assertThat(inMethod + inLockMethod).as("wait in the blocked methods of the span's %d ns", total)
				.isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
			// Every contended wait is recorded (threshold 0) with its own duration: the
			// sum is the wait the thread measured around the same calls, less the moments
			// between the clock reads and the wait itself.
			assertThat((double) inMethod).as("recorded monitor wait vs measured %d ns", waited)
				.isBetween(leastRecorded(waited, 8), (double) waited);
			assertThat((double) inLockMethod).as("recorded parks vs measured %d ns", parked)
				.isBetween(leastRecorded(parked, 4), (double) parked);

			List<IngestReceiver.Event> uploaded = new ArrayList<>();
			Map<Long, String> strings = new HashMap<>();
			awaitUploaded(receiver, workEnded, uploaded, strings, "jdk.JavaMonitorEnter", "jdk.ThreadPark");
			long spanId = SpanLabels.parseHex(span.getSpanContext().getSpanId(), 0, 16);
			List<IngestReceiver.Event> inBlocked = uploaded.stream()
				.filter((e) -> e.in("enterContendedMonitor"))
				.toList();
			long labelled = weight(inBlocked.stream().filter((e) -> e.spanId() == spanId).toList());
			System.out.printf("pyroscope lock upload: %d of %d ns in enterContendedMonitor labelled with the span%n",
					labelled, weight(inBlocked));
			assertThat(inBlocked).hasSize(8).allMatch((e) -> e.type().equals("jdk.JavaMonitorEnter"));
			assertThat(labelled).as("uploaded wait in the blocked method labelled with the span")
				.isEqualTo(weight(inBlocked))
				.isEqualTo(inMethod);
			long spanName = inBlocked.get(0).spanName();
			assertThat(strings.get(spanName)).isEqualTo("blocked");
			// The agent's profiler writes no span fields on parks (java.util.concurrent
			// locks): they reach Pyroscope unlabelled, and only the local view joins them
			// to the span.
			List<IngestReceiver.Event> parks = uploaded.stream()
				.filter((e) -> e.in("lockContendedReentrantLock"))
				.toList();
			assertThat(parks).isNotEmpty()
				.allMatch((e) -> e.type().equals("jdk.ThreadPark"))
				.noneMatch(IngestReceiver.Event::labelled);
			assertThat(weight(parks)).isEqualTo(inLockMethod);
		}
	}

	/**
	 * {@code lock-threshold} reaches the agent's profiler as {@code lock=}, which
	 * async-profiler (upstream 4.x and the agent's fork alike) treats as a sampling
	 * interval over the waiting time it sees: a wait longer than it is always recorded, a
	 * shorter one only when the running total crosses another multiple of it.
	 */
	@Test
	void lockThresholdSamplesWaitsShorterThanIt() throws Exception {
		Object monitor = new Object();
		int shortWaits = 16;
		try (IngestReceiver receiver = new IngestReceiver();
				PyroscopeHarness harness = new PyroscopeHarness(receiver.address(), false, 8, 3,
						Set.of(ProfilingEvent.CPU, ProfilingEvent.LOCK), ALLOC_INTERVAL, Duration.ofMillis(20),
						UPLOAD_INTERVAL)) {
			long cut = awaitCut(harness);
			Span span = harness.tracer.spanBuilder("blocked").setNoParent().startSpan();
			long waitedLong = 0;
			long waitedShort = 0;
			try (Scope scope = span.makeCurrent()) {
				for (int i = 0; i < 4; i++) {
					waitedLong += whileMonitorHeld(monitor, 50, () -> enterAfterLongWait(monitor));
				}
				for (int i = 0; i < shortWaits; i++) {
					waitedShort += whileMonitorHeld(monitor, 5, () -> enterAfterShortWait(monitor));
				}
			}
			finally {
				span.end();
			}
			long workEnded = workEndedBeforeNextCut(harness, cut);
			SpanRecord record = stored(harness, span);
			StackTree locks = record.ownSamples(SampleKind.LOCK);
			long inLong = weightIn(harness, locks, "enterAfterLongWait");
			long inShort = weightIn(harness, locks, "enterAfterShortWait");
			List<IngestReceiver.Event> uploaded = new ArrayList<>();
			awaitUploaded(receiver, workEnded, uploaded, new HashMap<>(), "jdk.JavaMonitorEnter");
			long spanId = SpanLabels.parseHex(span.getSpanContext().getSpanId(), 0, 16);
			List<IngestReceiver.Event> longEvents = uploaded.stream()
				.filter((e) -> e.in("enterAfterLongWait") && e.spanId() == spanId)
				.toList();
			List<IngestReceiver.Event> shortEvents = uploaded.stream()
				.filter((e) -> e.in("enterAfterShortWait") && e.spanId() == spanId)
				.toList();
			System.out.printf(
					"pyroscope lock-threshold 20ms: 50 ms waits %d of 4 recorded, %d of %d ns; 5 ms waits "
							+ "%d of %d recorded, %d of %d ns%n",
					longEvents.size(), inLong, waitedLong, shortEvents.size(), shortWaits, inShort, waitedShort);
			assertThat(longEvents).hasSize(4);
			assertThat((double) inLong).isBetween(leastRecorded(waitedLong, 4), (double) waitedLong);
			// Each short wait is recorded with a chance of about its length over 20 ms:
			// some 4 of 16 (binomial, sd 1.8). With lock-threshold not applied (0) all 16
			// would be.
			assertThat(shortEvents.size()).isLessThanOrEqualTo(11);
			// Locally a recorded wait counts as at least the threshold, so that the waits
			// it stands for are not lost from the span's total; the upload carries each
			// event's own duration, as the agent wrote it.
			long threshold = Duration.ofMillis(20).toNanos();
			assertThat(inShort)
				.isEqualTo(shortEvents.stream().mapToLong((event) -> Math.max(event.weight(), threshold)).sum());
		}
	}

	static long enterAfterLongWait(Object monitor) {
		return enterContendedMonitor(monitor);
	}

	static long enterAfterShortWait(Object monitor) {
		return enterContendedMonitor(monitor);
	}

	/**
	 * Wait for the agent's first cut of a recording and return when it happened (epoch
	 * nanoseconds).
	 */
	private static long awaitCut(PyroscopeHarness harness) throws InterruptedException {
		long started = harness.profiler.completeUpToEpochNanos();
		long deadline = System.nanoTime() + UPLOAD_INTERVAL.plusSeconds(10).toNanos();
		while (true) {
			harness.profiler.collectNow();
			long upTo = harness.profiler.completeUpToEpochNanos();
			if (upTo > started) {
				return upTo;
			}
			assertThat(System.nanoTime()).as("timed out waiting for the agent's first recording").isLessThan(deadline);
			Thread.sleep(20);
		}
	}

	/**
	 * The work of a test ends now, which must be well before the agent's next cut (the
	 * upload checked later covers it): wait until the local join has it too.
	 * @return when the work ended (epoch nanoseconds)
	 */
	private static long workEndedBeforeNextCut(PyroscopeHarness harness, long cut) throws InterruptedException {
		long workEnded = MonotonicEpoch.nowEpochNanos();
		assertThat(workEnded).as("the work ended before the agent's next cut")
			.isLessThan(cut + UPLOAD_INTERVAL.minusSeconds(1).toNanos());
		awaitCollected(harness, workEnded);
		return workEnded;
	}

	private static SpanRecord stored(PyroscopeHarness harness, Span span) {
		SpanRecord record = harness.profiler.store().find(span.getSpanContext().getSpanId());
		assertThat(record).as("span %s stored", span.getSpanContext().getSpanId()).isNotNull();
		return record;
	}

	private static void awaitCollected(PyroscopeHarness harness, long epochNanos) throws InterruptedException {
		PyroscopeHarness.await("local collection", UPLOAD_INTERVAL.plusSeconds(10), () -> {
			harness.profiler.collectNow();
			return harness.profiler.completeUpToEpochNanos() > epochNanos;
		});
	}

	private static void awaitUploaded(IngestReceiver receiver, long epochNanos, List<IngestReceiver.Event> events,
			Map<Long, String> strings, String... types) throws Exception {
		PyroscopeHarness.await("an upload covering the work", UPLOAD_INTERVAL.plusSeconds(10),
				() -> receiver.accepted()
					.stream()
					.anyMatch((u) -> Long.parseLong(u.query().get("until")) * 1_000_000_000L > epochNanos));
		for (IngestReceiver.Upload upload : receiver.accepted()) {
			events.addAll(upload.events(types));
			strings.putAll(upload.labels().getStringsMap());
		}
	}

	private static long weightIn(PyroscopeHarness harness, StackTree tree, String method) {
		long weight = 0;
		for (String line : CollapsedStacks.render(tree, harness.profiler.store().frames()).split("\n")) {
			if (line.contains("." + method + ";") || line.contains("." + method + " ")) {
				weight += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return weight;
	}

	private static long weight(List<IngestReceiver.Event> events) {
		return events.stream().mapToLong(IngestReceiver.Event::weight).sum();
	}

	/** Within four standard deviations of a Poisson count either way. */
	private static void assertAboutExpected(String what, long count, double expected) {
		double tolerance = 4 * Math.sqrt(expected);
		assertThat((double) count).as("%s vs expected %.1f", what, expected)
			.isBetween(expected - tolerance, expected + tolerance);
	}

	static void allocPyroscopeHot(long bytes) {
		for (long done = 0; done < bytes; done += CHUNK + 16) {
			escape = new byte[CHUNK];
		}
	}

}
