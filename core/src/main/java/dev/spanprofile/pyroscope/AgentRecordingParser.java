package dev.spanprofile.pyroscope;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.store.SampleKind;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.store.FrameKind;
import dev.spanprofile.store.FrameTable;
import dev.spanprofile.tracking.MonotonicEpoch;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads the recordings of the Pyroscope agent's async-profiler into samples. Its fork appends tracing fields to
 * every sample event, which jfr-converter's reader does not expect (it reads a fixed layout and loses its place);
 * the JDK's own parser follows the recording's metadata and reads them fine.
 */
final class AgentRecordingParser {

	private final FrameTable frames;

	private final SampleKind kind;

	private final Path workDirectory;

	AgentRecordingParser(FrameTable frames, SampleKind kind, Path workDirectory) {
		this.frames = frames;
		this.kind = kind;
		this.workDirectory = workDirectory;
	}

	/** Hand every CPU or wall-clock sample of {@code recording} (a complete JFR file) to {@code sink}. */
	int parse(byte[] recording, SampleSink sink) throws IOException {
		Files.createDirectories(this.workDirectory);
		Path file = Files.createTempFile(this.workDirectory, "spanprofile-pyroscope-", ".jfr");
		try {
			Files.write(file, recording);
			int count = 0;
			Map<String, Integer> frameIds = new HashMap<>();
			try (RecordingFile events = new RecordingFile(file)) {
				while (events.hasMoreEvents()) {
					RecordedEvent event = events.readEvent();
					String type = event.getEventType().getName();
					if (!type.equals("jdk.ExecutionSample") && !type.equals("profiler.WallClockSample")) {
						continue;
					}
					RecordedThread thread = event.getThread("sampledThread");
					long threadId = (thread != null) ? thread.getJavaThreadId() : -1;
					long weight = event.hasField("samples") ? Math.max(1, event.getLong("samples")) : 1;
					sink.sample(this.kind, threadId, toNanoTime(event.getStartTime()), stack(event, frameIds), weight);
					count++;
				}
			}
			return count;
		}
		finally {
			Files.deleteIfExists(file);
		}
	}

	private int[] stack(RecordedEvent event, Map<String, Integer> frameIds) {
		RecordedStackTrace trace = event.getStackTrace();
		if (trace == null) {
			return new int[] { this.frames.intern("[unknown stack]", FrameKind.NATIVE) };
		}
		List<RecordedFrame> recorded = trace.getFrames();
		int depth = recorded.size();
		int[] stack = new int[depth];
		for (int i = 0; i < depth; i++) {
			RecordedFrame frame = recorded.get(i);
			FrameKind frameKind = kindOf(frame.getType());
			String name = frameName(frame.getMethod());
			String key = frameKind.ordinal() + name;
			Integer id = frameIds.get(key);
			if (id == null) {
				id = this.frames.intern(name, frameKind);
				frameIds.put(key, id);
			}
			// JFR lists the leaf first; flame graphs want the outermost caller first.
			stack[depth - 1 - i] = id;
		}
		return stack;
	}

	private static String frameName(RecordedMethod method) {
		if (method == null) {
			return "[unknown]";
		}
		String className = (method.getType() != null) ? method.getType().getName() : null;
		return (className == null || className.isEmpty()) ? method.getName() : className + '.' + method.getName();
	}

	private static FrameKind kindOf(String type) {
		if (type == null) {
			return FrameKind.JAVA;
		}
		return switch (type) {
			case "Kernel" -> FrameKind.KERNEL;
			case "Native", "C++" -> FrameKind.NATIVE;
			default -> FrameKind.JAVA;
		};
	}

	/** The JDK's parser converts the recording's ticks to wall-clock time; samples are joined on System.nanoTime(). */
	static long toNanoTime(Instant instant) {
		long epochNanos = instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
		return System.nanoTime() - (MonotonicEpoch.nowEpochNanos() - epochNanos);
	}

}
