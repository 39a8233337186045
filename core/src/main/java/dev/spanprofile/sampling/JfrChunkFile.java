package dev.spanprofile.sampling;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a JFR file that the profiler is still appending to, one batch of completed chunks
 * at a time. A chunk is complete once its header carries its real size and constant-pool
 * offset; the chunk being written has neither.
 * <p>
 * Bytes that do not start a chunk where one should start (a write to the recording
 * failed, e.g. on a full disk, and the profiler carried on after it) are skipped up to
 * the next chunk header, so that later chunks are read again instead of the same garbage
 * failing every cycle.
 */
final class JfrChunkFile {

	private static final int CHUNK_MAGIC = 0x464c5200;

	private static final int MAJOR_VERSION = 2;

	private static final int HEADER_SIZE = 68;

	private static final int SCAN_BLOCK = 64 * 1024;

	private final Path file;

	private long offset;

	/**
	 * Whether the offset is in bytes that are not a chunk, already reported, looking for
	 * the next header.
	 */
	private boolean skipping;

	JfrChunkFile(Path file) {
		this.file = file;
	}

	Path path() {
		return this.file;
	}

	long length() throws IOException {
		try (FileChannel channel = FileChannel.open(this.file, StandardOpenOption.READ)) {
			return channel.size();
		}
	}

	/**
	 * The chunks completed since the last call, or {@code null} when none were.
	 * @throws IOException when the file cannot be read, or (once per stretch of them)
	 * when bytes that are not a chunk follow the chunks read so far: they are skipped,
	 * and later calls go on from the next chunk header
	 */
	ByteBuffer completedChunks() throws IOException {
		try (FileChannel channel = FileChannel.open(this.file, StandardOpenOption.READ)) {
			long size = channel.size();
			long available = size - this.offset;
			if (available < HEADER_SIZE) {
				return null;
			}
			long complete = 0;
			ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
			while (available - complete >= HEADER_SIZE) {
				header.clear();
				readFully(channel, header, this.offset + complete);
				if (!isChunkStart(header)) {
					if (complete > 0) {
						// Hand over the good chunks first; the garbage is dealt with on
						// the next call.
						break;
					}
					long start = this.offset;
					skipToNextChunk(channel, size);
					if (!this.skipping) {
						this.skipping = true;
						throw new IOException((this.offset - start) + " bytes at offset " + start + " of " + this.file
								+ " are not a JFR chunk (a write to the recording failed?); skipped them");
					}
					available = size - this.offset;
					continue;
				}
				this.skipping = false;
				long chunkSize = header.getLong(8);
				long constantPoolOffset = header.getLong(16);
				if (constantPoolOffset == 0 || chunkSize <= HEADER_SIZE || chunkSize > available - complete) {
					break;
				}
				complete += chunkSize;
			}
			if (complete == 0) {
				return null;
			}
			if (complete > Integer.MAX_VALUE) {
				throw new IOException("Completed JFR chunks of " + complete + " bytes in " + this.file
						+ " are too large to read at once");
			}
			ByteBuffer chunks = ByteBuffer.allocate((int) complete);
			readFully(channel, chunks, this.offset);
			this.offset += complete;
			return chunks;
		}
	}

	private static boolean isChunkStart(ByteBuffer header) {
		return header.getInt(0) == CHUNK_MAGIC && header.getShort(4) == MAJOR_VERSION;
	}

	/**
	 * Move the offset past the bytes at it: to the next place a chunk header starts, or
	 * as far as it is certain that none starts before.
	 */
	private void skipToNextChunk(FileChannel channel, long size) throws IOException {
		// Every position up to size - 4 is searched; a header may be partly written after
		// that.
		long next = Math.max(this.offset + 1, size - 3);
		ByteBuffer block = ByteBuffer.allocate(SCAN_BLOCK + 3).order(ByteOrder.BIG_ENDIAN);
		ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
		search: for (long blockStart = this.offset + 1; blockStart + 4 <= size; blockStart += SCAN_BLOCK) {
			block.clear();
			block.limit((int) Math.min(block.capacity(), size - blockStart));
			readFully(channel, block, blockStart);
			for (int i = 0; i < SCAN_BLOCK && i + 4 <= block.limit(); i++) {
				if (block.getInt(i) != CHUNK_MAGIC) {
					continue;
				}
				long candidate = blockStart + i;
				if (candidate + HEADER_SIZE > size) {
					next = candidate;
					break search;
				}
				header.clear();
				readFully(channel, header, candidate);
				if (isChunkStart(header)) {
					next = candidate;
					break search;
				}
			}
		}
		this.offset = next;
	}

	private void readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
		long at = position;
		while (buffer.hasRemaining()) {
			int read = channel.read(buffer, at);
			if (read < 0) {
				throw new IOException("JFR file shrank while reading: " + this.file);
			}
			at += read;
		}
		buffer.flip();
	}

}
