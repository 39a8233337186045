package dev.spanprofile.sampling;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.tracking.MonotonicEpoch;
import one.jfr.JfrReader;
import one.jfr.event.AllocationSample;
import one.jfr.event.ContendedLock;
import one.jfr.event.Event;
import one.jfr.event.ExecutionSample;

/**
 * Turns complete JFR chunks written by async-profiler into samples: each stack becomes
 * interned frame ids, root first, and each timestamp the {@code System.nanoTime()} clock
 * the activation tracker uses.
 */
final class JfrChunkParser {

	private static final int CHUNK_HEADER_SIZE = JfrChunkHeader.SIZE;

	private static final long NANOS_PER_SECOND = 1_000_000_000L;

	private final StackConverter stacks;

	/**
	 * What the recording samples; with cpu and wall each sample's thread state tells them
	 * apart.
	 */
	private final java.util.Set<SampleKind> kinds;

	/**
	 * The one timer-driven kind when only one is sampled, or {@code null} for none or
	 * both.
	 */
	private final SampleKind onlyTimedKind;

	/** async-profiler's {@code lock=} interval (see {@link LockWaitWeight}). */
	private final long lockIntervalNanos;

	JfrChunkParser(FrameTable frames, java.util.Set<SampleKind> kinds) {
		this(frames, kinds, 0);
	}

	JfrChunkParser(FrameTable frames, java.util.Set<SampleKind> kinds, long lockIntervalNanos) {
		this.lockIntervalNanos = lockIntervalNanos;
		this.stacks = new StackConverter(frames);
		this.kinds = kinds;
		boolean cpu = kinds.contains(SampleKind.CPU);
		boolean wall = kinds.contains(SampleKind.WALL);
		this.onlyTimedKind = (cpu == wall) ? null : (cpu ? SampleKind.CPU : SampleKind.WALL);
	}

	/**
	 * Parse every chunk in {@code chunks} (complete chunks only) and hand their samples
	 * to {@code sink}. Each chunk stands alone: one that cannot be parsed is skipped
	 * whole, none of its samples delivered, and the others are still parsed.
	 * @return the number of samples delivered
	 * @throws IOException after delivering the samples of the good chunks, when some
	 * chunks were corrupt
	 */
	int parse(ByteBuffer chunks, SampleSink sink) throws IOException {
		int count = 0;
		int corrupt = 0;
		int total = 0;
		Throwable firstFailure = null;
		for (int position = 0; position < chunks.limit();) {
			long chunkSize = (chunks.limit() - position >= CHUNK_HEADER_SIZE) ? chunks.getLong(position + 8) : 0;
			// The chunk file hands over whole chunks only; a size that does not fit means
			// the batch is damaged.
			int size = (chunkSize >= CHUNK_HEADER_SIZE && chunkSize <= chunks.limit() - position) ? (int) chunkSize
					: chunks.limit() - position;
			total++;
			List<Sample> samples = new ArrayList<>();
			try {
				parseChunk(chunks.slice(position, size), samples);
			}
			catch (IOException | RuntimeException | OutOfMemoryError | StackOverflowError ex) {
				// Corrupt lengths make the reader allocate absurd arrays or recurse
				// without end: that is the chunk's fault, not the heap's or the stack's,
				// and must not cost the samples of the other chunks.
				corrupt++;
				if (firstFailure == null) {
					firstFailure = ex;
				}
				samples = null;
			}
			if (samples != null) {
				for (Sample sample : samples) {
					sink.sample(sample.kind, sample.javaThreadId, sample.time, sample.stack, sample.weight);
				}
				count += samples.size();
			}
			position += size;
		}
		if (firstFailure != null) {
			throw new IOException(
					corrupt + " of " + total + " JFR chunks could not be parsed and were skipped: " + firstFailure,
					firstFailure);
		}
		return count;
	}

	private void parseChunk(ByteBuffer chunk, List<Sample> samples) throws IOException {
		try (JfrReader reader = new JfrReader(chunk)) {
			reader.stopAtNewChunk = true;
			// Method and stack ids are only valid within one chunk.
			Map<Long, Integer> frameIds = new HashMap<>();
			Map<Integer, int[]> stacks = new HashMap<>();
			MonotonicEpoch.Anchor anchor = anchor(reader);
			int cpuState = (this.onlyTimedKind == null) ? reader.getEnumKey("jdk.types.ThreadState", "STATE_DEFAULT")
					: Integer.MIN_VALUE;
			for (Event event; (event = reader.readEvent()) != null;) {
				SampleKind kind;
				long weight;
				long time = event.time;
				if (event instanceof ExecutionSample sample) {
					kind = kindOf(sample, cpuState);
					weight = Math.max(1, sample.samples);
				}
				else if (event instanceof AllocationSample allocation && this.kinds.contains(SampleKind.ALLOC)) {
					// value() is the bytes the sample stands for: the TLAB it opened, or
					// the object outside one.
					kind = SampleKind.ALLOC;
					weight = Math.max(1, allocation.value());
				}
				else if (event instanceof ContendedLock lock && this.kinds.contains(SampleKind.LOCK)) {
					kind = SampleKind.LOCK;
					weight = LockWaitWeight.of(ticksToNanos(reader, lock.duration), this.lockIntervalNanos);
					// Stamped when the wait ended, as async-profiler writes it: into the
					// chunk of its end, so that "every sample stamped before a dump is in
					// it" holds for waits in progress at a dump too. The waiting thread
					// ran no code meanwhile, so its span at the end is its span
					// throughout.
					time = lock.time + lock.duration;
				}
				else {
					continue;
				}
				int[] stack = stacks.get(event.stackTraceId);
				if (stack == null) {
					stack = this.stacks.rootFirst(reader, event.stackTraceId, frameIds);
					stacks.put(event.stackTraceId, stack);
				}
				Long javaThreadId = reader.javaThreads.get(event.tid);
				samples.add(new Sample(kind, (javaThreadId != null) ? javaThreadId : -1,
						toMonotonic(reader, anchor, time), stack, weight));
			}
		}
	}

	private static long ticksToNanos(JfrReader reader, long ticks) {
		if (reader.ticksPerSec == NANOS_PER_SECOND) {
			return ticks;
		}
		return (long) (ticks * (double) NANOS_PER_SECOND / reader.ticksPerSec);
	}

	/**
	 * async-profiler marks CPU samples with the thread state STATE_DEFAULT and wall-clock
	 * samples with the thread's real state (RUNNABLE, SLEEPING, ...).
	 */
	private SampleKind kindOf(ExecutionSample sample, int cpuState) {
		if (this.onlyTimedKind != null) {
			return this.onlyTimedKind;
		}
		return (sample.threadState == cpuState) ? SampleKind.CPU : SampleKind.WALL;
	}

	private static long toMonotonic(JfrReader reader, MonotonicEpoch.Anchor anchor, long ticks) {
		// With clock=monotonic the ticks are CLOCK_MONOTONIC nanoseconds, which is what
		// System.nanoTime() reads.
		if (reader.ticksPerSec == NANOS_PER_SECOND) {
			return ticks;
		}
		return anchor.toNanoTime(reader.eventTimeToNanos(ticks));
	}

	/**
	 * Other ticks (TSC) are converted through wall-clock time, with a pairing of the
	 * clocks read per chunk.
	 */
	private static MonotonicEpoch.Anchor anchor(JfrReader reader) {
		return (reader.ticksPerSec == NANOS_PER_SECOND) ? null : MonotonicEpoch.Anchor.now();
	}

	/** A parsed sample, held until its whole chunk has parsed. */
	private record Sample(SampleKind kind, long javaThreadId, long time, int[] stack, long weight) {
	}

}
