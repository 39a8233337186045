package dev.spanprofile.sampling;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The life of async-profiler's recording file: one long JFR recording cut into chunks by
 * a dump at every collect, only newly completed chunks parsed. The file is started afresh
 * when it grows past {@link #ROTATE_BYTES}, when it is deleted under the running
 * application, and when its writes stop reaching it (a full disk). Every file given up is
 * deleted, and so are those that processes now gone left in the directory.
 * <p>
 * Not thread-safe: the engine calls it under its own lock.
 */
final class ChunkedRecording {

	static final long ROTATE_BYTES = 32L * 1024 * 1024;

	/**
	 * Dumps in a row without a completed chunk after which the recording is given up for
	 * a new file.
	 */
	static final int STALLED_DUMPS_BEFORE_RESTART = 3;

	/**
	 * Usable bytes the directory needs before a recording given up is replaced. The one
	 * given up is deleted, and on a disk someone else filled, its bytes alone would let a
	 * new recording run briefly and fill the disk again.
	 */
	static final long ROOM_TO_RESTART = 1024 * 1024;

	private final Path directory;

	private final JfrChunkParser parser;

	private final Recorder recorder;

	/**
	 * The file being written, or {@code null} after a failed (re)start, to be tried again
	 * at the next collect.
	 */
	private JfrChunkFile file;

	/** Why there is no file, while there is none. */
	private String noFileBecause;

	private boolean started;

	/** Dumps in a row that completed no chunk. */
	private int stalledDumps;

	ChunkedRecording(Path directory, JfrChunkParser parser, Recorder recorder) {
		this.directory = directory;
		this.parser = parser;
		this.recorder = recorder;
	}

	void start() throws SamplerUnavailableException {
		try {
			Files.createDirectories(this.directory);
		}
		catch (IOException ex) {
			throw new SamplerUnavailableException(
					"Cannot create the recording directory " + this.directory + ": " + ex.getMessage(), ex);
		}
		RecordingFiles.deleteAbandoned(this.directory);
		startFile();
		this.started = true;
	}

	private void startFile() throws SamplerUnavailableException {
		Path path = RecordingFiles.next(this.directory);
		try {
			Files.deleteIfExists(path);
		}
		catch (IOException ex) {
			throw new SamplerUnavailableException("Cannot start a recording in " + path + ": " + ex.getMessage(), ex);
		}
		this.recorder.start(path);
		this.file = new JfrChunkFile(path);
	}

	/**
	 * Dump, and hand every sample of the chunks completed since the last call to
	 * {@code sink}.
	 * @return the time (System.nanoTime clock) up to which all samples have been
	 * delivered
	 */
	long collect(SampleSink sink) throws IOException {
		if (!this.started) {
			return System.nanoTime();
		}
		if (this.file == null) {
			restart(this.noFileBecause);
			return System.nanoTime();
		}
		// Samples taken before the dump are in the chunk it completes; later ones go to
		// the next chunk.
		long completeUpTo = System.nanoTime();
		this.recorder.dump();
		boolean completedAChunk;
		try {
			completedAChunk = drain(sink);
		}
		catch (NoSuchFileException ex) {
			// Deleted under us, say by a temp-directory cleaner: the profiler would write
			// on into a file nobody can open, and that no rotation ever frees.
			String deleted = "the recording " + this.file.path() + " was deleted";
			restart(deleted);
			throw new IOException("Samples were lost: " + deleted + "; started a new one", ex);
		}
		catch (IOException ex) {
			// Damaged chunks mostly come from failed writes; the free space tells whether
			// the disk is why.
			throw new IOException("Reading " + this.file.path() + " failed (" + freeSpace() + "): " + ex.getMessage(),
					ex);
		}
		if (this.file.length() > ROTATE_BYTES) {
			rotate(sink);
		}
		if (!completedAChunk) {
			// Every dump completes a chunk, even one without samples: none means nothing
			// reaches the file.
			String stall = "async-profiler completed no chunk in " + this.file.path() + " at the last dump: its "
					+ "writes do not reach the file. Is the disk full? (" + freeSpace() + ")";
			if (++this.stalledDumps >= STALLED_DUMPS_BEFORE_RESTART) {
				// A chunk whose header a failed write left unfinished never completes,
				// and every chunk after it waits behind it: once the disk has room again
				// only a new file gets samples through.
				this.stalledDumps = 0;
				restart(stall);
				throw new IOException(stall + "; started a new recording");
			}
			throw new IOException(stall);
		}
		this.stalledDumps = 0;
		return completeUpTo;
	}

	/**
	 * @return whether a completed chunk was found
	 */
	private boolean drain(SampleSink sink) throws IOException {
		ByteBuffer chunks = this.file.completedChunks();
		if (chunks == null) {
			return false;
		}
		this.parser.parse(chunks, sink);
		return true;
	}

	private void rotate(SampleSink sink) throws IOException {
		JfrChunkFile finished = this.file;
		this.recorder.stop();
		try {
			drain(sink);
		}
		finally {
			// Read or not, the stopped file is done with: the next one starts below or at
			// the next collect.
			giveUp(finished, "the rotation of the recording");
		}
		try {
			startFile();
		}
		catch (SamplerUnavailableException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
	}

	/**
	 * Give up the current file, if any, and start a new one once the directory has room.
	 */
	private void restart(String reason) throws IOException {
		if (this.file != null) {
			stopQuietly();
			giveUp(this.file, reason);
		}
		long usable = usableSpace();
		if (usable < ROOM_TO_RESTART) {
			throw new IOException("Waiting for " + ROOM_TO_RESTART + " usable bytes in " + this.directory
					+ " to start a new recording after " + reason + " (" + usable + " bytes usable)");
		}
		try {
			Files.createDirectories(this.directory);
			startFile();
		}
		catch (IOException | SamplerUnavailableException ex) {
			throw new IOException(
					"Cannot start a new recording in " + this.directory + " after " + reason + ": " + ex.getMessage(),
					ex);
		}
	}

	private void giveUp(JfrChunkFile given, String reason) {
		this.file = null;
		this.noFileBecause = reason;
		RecordingFiles.delete(given.path());
	}

	private void stopQuietly() {
		try {
			this.recorder.stop();
		}
		catch (IOException | RuntimeException ex) {
			System.getLogger(ChunkedRecording.class.getName())
				.log(System.Logger.Level.DEBUG, "Stopping async-profiler failed", ex);
		}
	}

	/**
	 * Usable bytes in the directory; when unknown (say, deleted), as if there were room.
	 */
	private long usableSpace() {
		try {
			return Files.getFileStore(this.directory).getUsableSpace();
		}
		catch (IOException ex) {
			return Long.MAX_VALUE;
		}
	}

	private String freeSpace() {
		try {
			return this.directory + ": " + Files.getFileStore(this.directory).getUsableSpace() + " bytes usable";
		}
		catch (IOException ex) {
			return this.directory + ": usable space unknown";
		}
	}

	/** Stop recording and delete the file. */
	void close() {
		this.started = false;
		if (this.file == null) {
			return;
		}
		stopQuietly();
		giveUp(this.file, "the recording was closed");
	}

	/** What the recording asks of the profiler. */
	interface Recorder {

		/** Start recording into {@code file}. */
		void start(Path file) throws SamplerUnavailableException;

		/** Complete the chunk being written. */
		void dump() throws IOException;

		/** Stop recording. */
		void stop() throws IOException;

	}

}
