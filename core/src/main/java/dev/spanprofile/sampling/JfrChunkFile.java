package dev.spanprofile.sampling;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a JFR file that the profiler is still appending to, one batch of completed chunks at a time. A chunk is
 * complete once its header carries its real size and constant-pool offset; the chunk being written has neither.
 */
final class JfrChunkFile {

	private static final int CHUNK_MAGIC = 0x464c5200;

	private static final int HEADER_SIZE = 68;

	private final Path file;

	private long offset;

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

	/** The chunks completed since the last call, or {@code null} when none were. */
	ByteBuffer completedChunks() throws IOException {
		try (FileChannel channel = FileChannel.open(this.file, StandardOpenOption.READ)) {
			long available = channel.size() - this.offset;
			if (available < HEADER_SIZE) {
				return null;
			}
			long complete = 0;
			ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
			while (available - complete >= HEADER_SIZE) {
				header.clear();
				channel.read(header, this.offset + complete);
				header.flip();
				if (header.getInt(0) != CHUNK_MAGIC) {
					throw new IOException("Not a JFR chunk at offset " + (this.offset + complete) + " of " + this.file);
				}
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
			ByteBuffer chunks = ByteBuffer.allocate((int) complete);
			while (chunks.hasRemaining()) {
				if (channel.read(chunks, this.offset + chunks.position()) < 0) {
					throw new IOException("JFR file shrank while reading: " + this.file);
				}
			}
			chunks.flip();
			this.offset += complete;
			return chunks;
		}
	}

}
