package dev.spanprofile.sampling;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import one.profiler.AsyncProfiler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.fail;

/**
 * Real chunks from a real async-profiler recording, with garbage between them and inside
 * them: the chunk file skips what is not a chunk (reporting it once) and reads the chunks
 * after it; the parser skips a chunk it cannot read, whatever it throws, and still
 * delivers the samples of the others.
 */
class JfrChunkCorruptionTest {

	private static final int CHUNKS = 3;

	/** Three consecutive, complete chunks as async-profiler wrote them. */
	private static final List<byte[]> chunks = new ArrayList<>();

	static volatile long sink;

	@TempDir
	Path directory;

	@BeforeAll
	static void recordRealChunks(@TempDir Path recordingDirectory) throws Exception {
		Path file = recordingDirectory.resolve("real.jfr");
		AsyncProfiler profiler = NativeProfiler.load(SamplerSettings.defaults());
		profiler.execute("start,jfr,clock=monotonic,event=cpu,interval=2ms,file=" + file);
		try {
			for (int i = 0; i < CHUNKS; i++) {
				burnCorruptionTestCpu(150);
				profiler.execute("dump,jfr");
			}
		}
		finally {
			profiler.execute("stop");
		}
		ByteBuffer all = new JfrChunkFile(file).completedChunks();
		while (all.hasRemaining() && chunks.size() < CHUNKS) {
			byte[] chunk = new byte[(int) all.getLong(all.position() + 8)];
			all.get(chunk);
			chunks.add(chunk);
		}
		assertThat(chunks).hasSize(CHUNKS);
		for (byte[] chunk : chunks) {
			assertThat(samplesIn(chunk)).as("samples in a clean chunk").isGreaterThan(10);
		}
	}

	@Test
	void garbageBetweenChunksIsSkippedOnceAndTheChunksAfterItAreRead() throws IOException {
		Path file = this.directory.resolve("garbage-between.jfr");
		byte[] garbage = garbage(5000, 1);
		append(file, chunks.get(0), garbage, chunks.get(1));
		JfrChunkFile recording = new JfrChunkFile(file);

		assertThat(bytes(recording.completedChunks())).as("the chunk before the garbage").isEqualTo(chunks.get(0));
		assertThatIOException().isThrownBy(recording::completedChunks)
			.withMessageContaining("5000 bytes at offset " + chunks.get(0).length)
			.withMessageContaining("not a JFR chunk");
		assertThat(bytes(recording.completedChunks())).as("the chunk after the garbage").isEqualTo(chunks.get(1));
		append(file, chunks.get(2));
		assertThat(bytes(recording.completedChunks())).isEqualTo(chunks.get(2));
		assertThat(recording.completedChunks()).isNull();
	}

	@Test
	void garbageStillBeingWrittenIsReportedOnceNotEveryCycle() throws IOException {
		// The shape a full disk leaves: a chunk header that could not be written, then
		// the profiler carrying on with the events of that chunk once space is back, and
		// a proper chunk after the next dump.
		Path file = this.directory.resolve("headless.jfr");
		append(file, chunks.get(0), garbage(2000, 2));
		JfrChunkFile recording = new JfrChunkFile(file);
		assertThat(bytes(recording.completedChunks())).isEqualTo(chunks.get(0));
		assertThatIOException().isThrownBy(recording::completedChunks).withMessageContaining("not a JFR chunk");
		for (int cycle = 0; cycle < 5; cycle++) {
			append(file, garbage(3000, 10 + cycle));
			assertThat(recording.completedChunks()).as("cycle %d while garbage goes on", cycle).isNull();
		}
		append(file, chunks.get(1), chunks.get(2));
		assertThat(bytes(recording.completedChunks())).isEqualTo(concat(chunks.get(1), chunks.get(2)));
	}

	@Test
	void aChunkThatMakesTheReaderRunOutOfMemoryIsSkippedWholeAndTheOthersAreParsed() throws IOException {
		byte[] corrupt = withAbsurdMetadataStringCount(chunks.get(1));
		CountingSink counted = new CountingSink();
		JfrChunkParser parser = new JfrChunkParser(new FrameTable(), java.util.Set.of(SampleKind.CPU));

		assertThatIOException().isThrownBy(() -> parser.parse(batch(chunks.get(0), corrupt, chunks.get(2)), counted))
			.withMessageStartingWith("1 of 3 JFR chunks could not be parsed")
			.withCauseInstanceOf(OutOfMemoryError.class);
		assertThat(counted.samples.get()).isEqualTo(samplesIn(chunks.get(0)) + samplesIn(chunks.get(2)));
		// The parser is none the worse for it.
		assertThat(parser.parse(batch(chunks.get(1)), counted)).isEqualTo(samplesIn(chunks.get(1)));
	}

	@Test
	@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
	void damageLikeAFailedWriteNeverEscapesAsAnythingButAnIOException() {
		int expectedOthers = samplesIn(chunks.get(0)) + samplesIn(chunks.get(2));
		Random random = new Random(20261122);
		int rejected = 0;
		int trials = 120;
		for (int trial = 0; trial < trials; trial++) {
			byte[] damaged = damage(chunks.get(1), trial % 4, random);
			CountingSink counted = new CountingSink();
			try {
				new JfrChunkParser(new FrameTable(), java.util.Set.of(SampleKind.CPU))
					.parse(batch(chunks.get(0), damaged, chunks.get(2)), counted);
				assertThat(counted.samples.get()).isGreaterThanOrEqualTo(expectedOthers);
			}
			catch (IOException ex) {
				rejected++;
				assertThat(counted.samples.get()).as("trial %d: %s", trial, ex).isEqualTo(expectedOthers);
			}
			catch (Throwable ex) {
				fail("trial " + trial + " let " + ex + " escape", ex);
			}
		}
		System.out.printf("chunk damage: %d of %d damaged chunks rejected, the rest parsed%n", rejected, trials);
		assertThat(rejected).as("damage that was noticed at all").isGreaterThan(trials / 4);
	}

	/**
	 * What failed writes leave in a chunk: a stretch that reads as zeros (a hole), a
	 * stretch missing with the rest moved up (a buffer that never made it), a stretch of
	 * 0xff, or a few bytes overwritten.
	 */
	private static byte[] damage(byte[] chunk, int kind, Random random) {
		byte[] damaged = chunk.clone();
		int from = 68 + random.nextInt(damaged.length - 68);
		int length = Math.min(damaged.length - from, 1 + random.nextInt(2048));
		switch (kind) {
			case 0 -> Arrays.fill(damaged, from, from + length, (byte) 0);
			case 1 -> {
				System.arraycopy(chunk, from + length, damaged, from, chunk.length - from - length);
				Arrays.fill(damaged, chunk.length - length, chunk.length, (byte) 0);
			}
			case 2 -> Arrays.fill(damaged, from, from + length, (byte) 0xff);
			default -> {
				for (int i = from; i < Math.min(damaged.length, from + 8); i++) {
					damaged[i] = (byte) random.nextInt();
				}
			}
		}
		return damaged;
	}

	private static int samplesIn(byte[] chunk) {
		CountingSink counted = new CountingSink();
		try {
			new JfrChunkParser(new FrameTable(), java.util.Set.of(SampleKind.CPU)).parse(batch(chunk), counted);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		return counted.samples.get();
	}

	/**
	 * Overwrite the metadata's string count with 2^31-1: the reader then allocates an
	 * array it cannot have.
	 */
	private static byte[] withAbsurdMetadataStringCount(byte[] chunk) {
		ByteBuffer buffer = ByteBuffer.wrap(chunk.clone());
		buffer.position((int) buffer.getLong(24));
		readVarint(buffer); // event size
		readVarint(buffer); // event type
		for (int i = 0; i < 3; i++) {
			readVarint(buffer); // start time, duration, metadata id
		}
		buffer.put(new byte[] { (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07 });
		return buffer.array();
	}

	private static long readVarint(ByteBuffer buffer) {
		long value = 0;
		for (int shift = 0;; shift += 7) {
			byte b = buffer.get();
			value |= (long) (b & 0x7f) << shift;
			if (b >= 0) {
				return value;
			}
		}
	}

	/** Random bytes that cannot contain a chunk's magic number (no 'F'). */
	private static byte[] garbage(int length, long seed) {
		byte[] bytes = new byte[length];
		new Random(seed).nextBytes(bytes);
		for (int i = 0; i < length; i++) {
			if (bytes[i] == 'F') {
				bytes[i] = 'G';
			}
		}
		return bytes;
	}

	private static ByteBuffer batch(byte[]... parts) {
		return ByteBuffer.wrap(concat(parts));
	}

	private static byte[] concat(byte[]... parts) {
		int length = 0;
		for (byte[] part : parts) {
			length += part.length;
		}
		ByteBuffer all = ByteBuffer.allocate(length);
		for (byte[] part : parts) {
			all.put(part);
		}
		return all.array();
	}

	private static void append(Path file, byte[]... parts) throws IOException {
		Files.write(file, concat(parts), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
	}

	private static byte[] bytes(ByteBuffer buffer) {
		assertThat(buffer).as("completed chunks").isNotNull();
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		return bytes;
	}

	private static void burnCorruptionTestCpu(long cpuMillis) {
		long until = cpuNanos() + cpuMillis * 1_000_000;
		while (cpuNanos() < until) {
			long x = 3;
			for (int i = 0; i < 100_000; i++) {
				x = x * 31 + (x >>> 7);
			}
			sink += x;
		}
	}

	private static long cpuNanos() {
		return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
	}

	private static final class CountingSink implements SampleSink {

		final AtomicInteger samples = new AtomicInteger();

		@Override
		public void sample(SampleKind kind, long javaThreadId, long monotonicNanos, int[] rootFirstStack, long weight) {
			this.samples.incrementAndGet();
		}

	}

}
