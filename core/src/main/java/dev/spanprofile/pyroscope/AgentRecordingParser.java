package dev.spanprofile.pyroscope;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.sampling.JfrChunkHeader;
import dev.spanprofile.sampling.LockWaitWeight;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.StackConverter;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.tracking.MonotonicEpoch;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads the recordings of the Pyroscope agent's async-profiler into samples. Its fork
 * appends tracing fields to every sample event, which jfr-converter's reader does not
 * expect (it reads a fixed layout and loses its place); the JDK's own parser follows the
 * recording's metadata and reads them fine.
 * <p>
 * The JDK's parser gives event times as wall-clock instants, computed from each chunk's
 * header. The agent records with {@code clock=monotonic}, so the header's pairing of the
 * two clocks turns them back into exactly the {@code System.nanoTime()} ticks the samples
 * were taken at, whatever the wall clock did since: each chunk is read on its own, with
 * its own pairing.
 */
final class AgentRecordingParser {

	private final StackConverter stacks;

	/**
	 * The kind of the recording's timer samples: CPU or WALL, the agent runs one timer
	 * event.
	 */
	private final SampleKind timedKind;

	private final boolean alloc;

	private final boolean lock;

	private final Path workDirectory;

	/** The agent's {@code lock=} interval (see {@link LockWaitWeight}). */
	private final long lockIntervalNanos;

	AgentRecordingParser(FrameTable frames, Set<SampleKind> kinds, Path workDirectory) {
		this(frames, kinds, workDirectory, 0);
	}

	AgentRecordingParser(FrameTable frames, Set<SampleKind> kinds, Path workDirectory, long lockIntervalNanos) {
		this.lockIntervalNanos = lockIntervalNanos;
		this.stacks = new StackConverter(frames);
		this.timedKind = kinds.contains(SampleKind.WALL) ? SampleKind.WALL : SampleKind.CPU;
		this.alloc = kinds.contains(SampleKind.ALLOC);
		this.lock = kinds.contains(SampleKind.LOCK);
		this.workDirectory = workDirectory;
	}

	/**
	 * Hand every sample (timer, allocation, lock) of {@code recording} (a complete JFR
	 * file) to {@code sink}.
	 */
	int parse(byte[] recording, SampleSink sink) throws IOException {
		Files.createDirectories(this.workDirectory);
		Path file = Files.createTempFile(this.workDirectory, "spanprofile-pyroscope-", ".jfr");
		try {
			ByteBuffer buffer = ByteBuffer.wrap(recording);
			int count = 0;
			for (int position = 0; position < recording.length;) {
				JfrChunkHeader header = JfrChunkHeader.read(buffer, position);
				if (header == null || header.size() < JfrChunkHeader.SIZE
						|| header.size() > recording.length - position) {
					throw new IOException("Not a complete JFR chunk at byte " + position + " of the agent's recording");
				}
				Files.write(file, java.util.Arrays.copyOfRange(recording, position, position + (int) header.size()));
				count += parseChunk(file, header.anchor(), sink);
				position += (int) header.size();
			}
			return count;
		}
		finally {
			Files.deleteIfExists(file);
		}
	}

	private int parseChunk(Path chunk, MonotonicEpoch.Anchor anchor, SampleSink sink) throws IOException {
		int count = 0;
		// The parser hands out one object per stack in the chunk's constant pool:
		// converting each once keeps the cost per event low. That matters beyond speed:
		// with alloc on, the profiler samples this parse's own allocations into the next
		// recording, and a parse allocating more than alloc-interval per event would feed
		// on itself.
		Map<RecordedStackTrace, int[]> chunkStacks = new IdentityHashMap<>();
		try (RecordingFile events = new RecordingFile(chunk)) {
			while (events.hasMoreEvents()) {
				RecordedEvent event = events.readEvent();
				SampleKind kind;
				long weight;
				RecordedThread thread;
				switch (event.getEventType().getName()) {
					case "jdk.ExecutionSample", "profiler.WallClockSample" -> {
						kind = this.timedKind;
						weight = event.hasField("samples") ? Math.max(1, event.getLong("samples")) : 1;
						thread = event.getThread("sampledThread");
					}
					case "jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB" -> {
						if (!this.alloc) {
							continue;
						}
						kind = SampleKind.ALLOC;
						// The bytes the sample stands for, as jfr-converter reads them
						// for the async-profiler engine: the TLAB the allocation opened,
						// or the object allocated outside one.
						long tlab = event.hasField("tlabSize") ? event.getLong("tlabSize") : 0;
						weight = Math.max(1, (tlab != 0) ? tlab : event.getLong("allocationSize"));
						thread = event.getThread();
					}
					case "jdk.JavaMonitorEnter", "jdk.ThreadPark" -> {
						if (!this.lock) {
							continue;
						}
						kind = SampleKind.LOCK;
						weight = LockWaitWeight.of(event.getDuration().toNanos(), this.lockIntervalNanos);
						thread = event.getThread();
					}
					default -> {
						continue;
					}
				}
				long threadId = (thread != null) ? thread.getJavaThreadId() : -1;
				RecordedStackTrace trace = event.getStackTrace();
				int[] stack = (trace != null) ? chunkStacks.computeIfAbsent(trace, this.stacks::rootFirst)
						: this.stacks.rootFirst(null);
				sink.sample(kind, threadId, anchor.toNanoTime(event.getStartTime()), stack, weight);
				count++;
			}
		}
		return count;
	}

}
