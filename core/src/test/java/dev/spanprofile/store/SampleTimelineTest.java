package dev.spanprofile.store;

import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A span's timeline keeps when and where each sample was taken, within a hard bound,
 * charged to the store like its stacks, and gives the flame graph of any stretch of the
 * span.
 */
class SampleTimelineTest {

	private static final long MS = 1_000_000;

	private static final long START = 1_700_000_000_000L * MS;

	private static final int[] COMPUTE = { 1, 2, 3 };

	private static final int[] READ = { 1, 4, 5 };

	@Test
	void keepsTheFirstSamplesUpToItsBoundAndCountsTheRest() {
		SpanProfileStore store = store();
		SpanRecord record = store.spanStarted("t", "s", null, false, "s", "SERVER", START, "main");
		int taken = SampleTimeline.MAX_ENTRIES + 904;
		for (int i = 0; i < taken; i++) {
			store.addSample(record, SampleKind.CPU, COMPUTE, 1, START + i * MS, 7, "worker");
		}
		TimelineSamples timeline = record.ownTimeline();
		assertThat(timeline.samples()).hasSize(4096);
		assertThat(timeline.dropped()).isEqualTo(904);
		assertThat(timeline.truncated()).isTrue();
		assertThat(timeline.samples().get(4095).epochNanos()).isEqualTo(START + 4095 * MS);
		// The graph of the whole span still has every sample; only the timeline stops
		// early.
		assertThat(record.ownSampleCount(SampleKind.CPU)).isEqualTo(taken);
		assertThat(record.ownSamples(SampleKind.CPU, START, START + taken * MS).totalSamples()).isEqualTo(4096);
	}

	@Test
	void chargesTheStoreWhatItHoldsAndRefundsItWithTheSpan() {
		SpanProfileStore store = store();
		long before = store.approximateBytes();
		SpanRecord record = store.spanStarted("t", "s", null, false, "s", "SERVER", START, "main");
		long metadata = store.approximateBytes() - before;
		long stacksOnly = 0;
		for (int i = 0; i < 5000; i++) {
			store.addSample(record, SampleKind.CPU, COMPUTE, 1, START + i * MS, 7 + (i % 3), "worker-" + (i % 3));
			if (i == 0) {
				stacksOnly = SampledStacks.bytesOf(COMPUTE.length);
			}
			assertThat(store.approximateBytes() - before - metadata).isEqualTo(record.ownSampleBytes());
		}
		long timelineBytes = record.ownSampleBytes() - stacksOnly;
		// Full: 4,096 entries of 23 bytes, three threads, the arrays' headers; and no
		// more however many follow.
		assertThat(timelineBytes).isEqualTo(SampleTimeline.FIXED_BYTES + 4096 * SampleTimeline.BYTES_PER_ENTRY
				+ 4 * SampleTimeline.BYTES_PER_THREAD);
		store.spanEnded("s", "s", "OK", START + 5000 * MS, true);
		assertThat(store.approximateBytes()).isEqualTo(before);
	}

	@Test
	void aStretchHoldsTheSamplesTakenInItAndThePartOfEachWaitInsideIt() {
		SpanProfileStore store = store();
		SpanRecord record = store.spanStarted("t", "s", null, false, "s", "SERVER", START, "main");
		for (int i = 0; i < 30; i++) {
			store.addSample(record, SampleKind.CPU, COMPUTE, 1, START + (10 + i * 10) * MS, 7, "worker");
		}
		// One 1.5 s read, from 310 ms to 1,810 ms: a wait's time is its end.
		store.addSample(record, SampleKind.WAIT, READ, 1500 * MS, START + 1810 * MS, 7, "worker");
		StackTree cpuStretch = record.ownSamples(SampleKind.CPU, START, START + 305 * MS);
		assertThat(cpuStretch.totalSamples()).isEqualTo(30);
		assertThat(record.ownSamples(SampleKind.WAIT, START, START + 305 * MS).totalSamples()).isZero();
		// Partly inside: counted with the 500 ms that fall in the stretch, as one wait.
		StackTree partial = record.ownSamples(SampleKind.WAIT, START + 1310 * MS, START + 2000 * MS);
		assertThat(partial.totalSamples()).isEqualTo(500 * MS);
		assertThat(partial.events()).isEqualTo(1);
		assertThat(record.ownSamples(SampleKind.CPU, START + 1310 * MS, START + 2000 * MS).totalSamples()).isZero();
		// The end is excluded: a sample exactly at it belongs to the next stretch.
		assertThat(record.ownSamples(SampleKind.CPU, START + 10 * MS, START + 20 * MS).totalSamples()).isEqualTo(1);
		TimelineSamples.Sample read = record.ownTimeline().samples().get(30);
		assertThat(read.startEpochNanos()).isEqualTo(START + 310 * MS);
		assertThat(read.leafFrame()).isEqualTo(5);
		assertThat(read.threadName()).isEqualTo("worker");
	}

	@Test
	void aRequestsStretchIncludesItsChildSpansOnOtherThreads() {
		SpanProfileStore store = store();
		SpanRecord root = store.spanStarted("t", "r", null, false, "r", "SERVER", START, "main");
		SpanRecord child = store.spanStarted("t", "c", "r", true, "c", "INTERNAL", START + 5 * MS, "pool-1");
		store.addSample(root, SampleKind.CPU, COMPUTE, 1, START + 2 * MS, 7, "main");
		store.addSample(child, SampleKind.CPU, COMPUTE, 1, START + 8 * MS, 9, "pool-1");
		store.addSample(child, SampleKind.CPU, COMPUTE, 1, START + 30 * MS, 9, "pool-1");
		assertThat(InclusiveSamples.of(root, SampleKind.CPU, START, START + 10 * MS).totalSamples()).isEqualTo(2);
		assertThat(root.ownSamples(SampleKind.CPU, START, START + 10 * MS).totalSamples()).isEqualTo(1);
		assertThat(child.ownTimeline().samples().get(0).threadId()).isEqualTo(9);
	}

	/**
	 * Not a bound on the charge but a check of it: the heap a span's timeline really
	 * holds, measured over many spans, is within a quarter of what is charged for it
	 * (printed for the record).
	 */
	@Test
	void theChargeIsCloseToTheHeapReallyHeld() {
		for (int samples : new int[] { 20, 100, 500 }) {
			int spans = 2000;
			long withoutTimeline = heldBy(spans, samples, false);
			long withTimeline = heldBy(spans, samples, true);
			double measured = (withTimeline - withoutTimeline) / (double) spans;
			SpanProfileStore store = store();
			SpanRecord record = store.spanStarted("t", "s", null, false, "s", "SERVER", START, "main");
			for (int i = 0; i < samples; i++) {
				store.addSample(record, SampleKind.CPU, COMPUTE, 1, START + i * MS, 7, "worker");
			}
			long charged = record.ownSampleBytes() - SampledStacks.bytesOf(COMPUTE.length);
			System.out.printf("timeline of %d samples: %.0f bytes measured, %d charged%n", samples, measured, charged);
			assertThat(measured).isBetween(charged * 0.75, charged * 1.25);
		}
	}

	private static long heldBy(int spans, int samples, boolean timed) {
		List<SpanRecord> records = new ArrayList<>(spans);
		long before = usedHeap();
		SpanProfileStore store = new SpanProfileStore(new StoreSettings(spans * 2, Long.MAX_VALUE, false));
		for (int s = 0; s < spans; s++) {
			SpanRecord record = store.spanStarted("t", "s" + s, null, false, "s", "SERVER", START, "main");
			for (int i = 0; i < samples; i++) {
				if (timed) {
					store.addSample(record, SampleKind.CPU, COMPUTE, 1, START + i * MS, 7, "worker");
				}
				else {
					store.addSample(record, SampleKind.CPU, COMPUTE, 1);
				}
			}
			records.add(record);
		}
		long held = usedHeap() - before;
		assertThat(records).hasSize(spans);
		return held;
	}

	private static long usedHeap() {
		long least = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			System.gc();
			Runtime runtime = Runtime.getRuntime();
			least = Math.min(least, runtime.totalMemory() - runtime.freeMemory());
		}
		return least;
	}

	private static SpanProfileStore store() {
		return new SpanProfileStore(new StoreSettings(100, Long.MAX_VALUE, false, RetentionSettings.recentOnly()));
	}

}
