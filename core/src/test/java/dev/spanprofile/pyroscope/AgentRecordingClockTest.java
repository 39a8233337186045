package dev.spanprofile.pyroscope;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.sampling.JfrChunkHeader;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import one.profiler.AsyncProfiler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sample times of the agent's recordings must land on the {@code System.nanoTime()} clock
 * where they were taken, even when the wall clock was stepped (NTP) between the JVM's
 * start and the recording: the recording's own pairing of the clocks is what counts, not
 * one read once at start-up. Recorded by async-profiler, as the agent's copy records:
 * {@code clock=monotonic}.
 */
class AgentRecordingClockTest {

	private static final long HOUR_NANOS = 3_600_000_000_000L;

	@TempDir
	static Path temp;

	private static byte[] recording;

	private static long recordingStarted;

	private static long recordingStopped;

	@BeforeAll
	static void record() throws Exception {
		Path file = temp.resolve("recording.jfr");
		AsyncProfiler profiler = AsyncProfiler.getInstance();
		recordingStarted = System.nanoTime();
		// itimer: works where perf_events are not permitted.
		profiler.execute("start,jfr,clock=monotonic,event=itimer,interval=5ms,file=" + file);
		Burners.headHot(400);
		profiler.execute("stop");
		recordingStopped = System.nanoTime();
		recording = Files.readAllBytes(file);
	}

	@Test
	void samplesLandWhenTheyWereTaken() throws Exception {
		List<Long> times = parse(recording);
		// ~400 ms of CPU at 5 ms: about 80 samples; far fewer means the recording did not
		// work at all.
		assertThat(times).hasSizeGreaterThan(20);
		assertThat(times).allSatisfy((time) -> assertThat(time).isBetween(recordingStarted, recordingStopped));
	}

	@Test
	void aWallClockSteppedSinceStartUpDoesNotMoveTheSamples() throws Exception {
		// As if NTP had stepped the wall clock an hour forward after this JVM started:
		// the recording says so in each chunk's header, and its monotonic ticks are
		// unchanged.
		byte[] stepped = recording.clone();
		ByteBuffer buffer = ByteBuffer.wrap(stepped);
		int chunks = 0;
		for (int position = 0; position < stepped.length; chunks++) {
			JfrChunkHeader header = JfrChunkHeader.read(buffer, position);
			buffer.putLong(position + 32, header.startEpochNanos() + HOUR_NANOS);
			position += (int) header.size();
		}
		assertThat(chunks).isPositive();
		List<Long> times = parse(stepped);
		assertThat(times).hasSameSizeAs(parse(recording));
		assertThat(times).allSatisfy((time) -> assertThat(time).isBetween(recordingStarted, recordingStopped));
	}

	private static List<Long> parse(byte[] bytes) throws Exception {
		List<Long> times = new ArrayList<>();
		AgentRecordingParser parser = new AgentRecordingParser(new FrameTable(), java.util.Set.of(SampleKind.CPU),
				temp.resolve("work"));
		parser.parse(bytes, (kind, thread, time, stack, weight) -> times.add(time));
		return times;
	}

}
