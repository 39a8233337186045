package dev.spanprofile.sampling;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.tracking.ActivationRecorder;
import one.profiler.AsyncProfiler;

/**
 * Samples with async-profiler: one long JFR recording with {@code clock=monotonic} (so sample times are directly
 * comparable with {@code System.nanoTime()}), cut into chunks by {@code dump} on every collect; only newly completed
 * chunks are parsed. The file is started afresh once it grows past {@link #ROTATE_BYTES}.
 */
public final class AsyncProfilerEngine implements SamplingEngine {

	private static final System.Logger logger = System.getLogger(AsyncProfilerEngine.class.getName());

	static final long ROTATE_BYTES = 32L * 1024 * 1024;

	/** async-profiler's own setting for where {@code getInstance()} extracts its bundled library. */
	static final String EXTRACT_PATH_PROPERTY = "one.profiler.extractPath";

	/** Dumps in a row without a completed chunk after which the recording is given up for a new file. */
	static final int STALLED_DUMPS_BEFORE_RESTART = 3;

	/**
	 * Usable bytes the work directory needs before a recording given up is replaced. The one given up is deleted, and
	 * on a disk someone else filled, its bytes alone would let a new recording run briefly and fill the disk again.
	 */
	static final long ROOM_TO_RESTART = 1024 * 1024;

	/** A path that is never a library, to ask the API for an existing instance without loading one. */
	private static final String PROBE_PATH = "/nonexistent/spanprofile-probe/libasyncProfiler.so";

	private final SamplerSettings settings;

	private final JfrChunkParser parser;

	private AsyncProfiler profiler;

	private JfrChunkFile recording;

	private String activeEvent;

	private final ActivationRecorder recorder;

	/** Between start and close; the recording may still be missing after a failed restart, to be retried. */
	private boolean started;

	/** Dumps in a row that completed no chunk. */
	private int stalledDumps;

	public AsyncProfilerEngine(SamplerSettings settings, FrameTable frames) {
		this(settings, frames, ActivationRecorder.global());
	}

	AsyncProfilerEngine(SamplerSettings settings, FrameTable frames, ActivationRecorder recorder) {
		this.settings = settings;
		this.recorder = recorder;
		this.parser = new JfrChunkParser(frames, settings.kinds(), settings.lockThreshold().toNanos());
	}

	@Override
	public String name() {
		return "async-profiler";
	}

	@Override
	public String activeEvent() {
		return (this.activeEvent != null) ? this.activeEvent : this.settings.eventsDescription();
	}

	@Override
	public synchronized void start() throws SamplerUnavailableException {
		refuseIfAnotherCopyRuns(OtherProfilers.mappedLibraries(), !OtherProfilers.agentsOnCommandLine().isEmpty());
		this.profiler = load(this.settings);
		// Loading must not have added a second copy beside one we could not see before (an -agentpath library).
		Set<String> mapped = OtherProfilers.mappedLibraries();
		if (mapped.size() > 1) {
			throw anotherCopy(mapped);
		}
		String status = status(this.profiler);
		if (status != null && !status.toLowerCase(Locale.ROOT).contains("not active")) {
			throw new SamplerUnavailableException("async-profiler is already profiling on behalf of another component ("
					+ status.trim() + "); spanprofile will not take it over. Stop the other session, or use spanprofile.engine=jfr");
		}
		try {
			Files.createDirectories(this.settings.workDirectory());
		}
		catch (IOException ex) {
			throw new SamplerUnavailableException("Cannot create the recording directory "
					+ this.settings.workDirectory() + ": " + ex.getMessage(), ex);
		}
		RecordingFiles.deleteAbandoned(this.settings.workDirectory());
		startRecording();
		this.started = true;
	}

	private void startRecording() throws SamplerUnavailableException {
		Path file = RecordingFiles.next(this.settings.workDirectory());
		String command = startCommand(file);
		try {
			Files.deleteIfExists(file);
			String response = this.profiler.execute(command);
			this.activeEvent = detectEvent(response);
			this.recording = new JfrChunkFile(file);
		}
		catch (IllegalStateException | IllegalArgumentException | IOException ex) {
			throw new SamplerUnavailableException("async-profiler refused '" + command + "': " + ex.getMessage(), ex);
		}
		if (this.settings.wall()) {
			// Every start clears the thread filter: register the threads that are inside a span right now, then
			// follow threads as they enter and leave spans.
			this.recorder.setThreadListener(new WallClockThreadFilter(this.profiler));
		}
	}

	/**
	 * A library mapped before this class's own instance exists belongs to someone else: Pyroscope's bundled copy,
	 * an -agentpath agent, another class loader's copy. Both copies would install signal handlers and steal each
	 * other's samples, so async-profiler is not started beside them.
	 */
	private static void refuseIfAnotherCopyRuns(Set<String> mapped, boolean agentOnCommandLine)
			throws SamplerUnavailableException {
		if (ourInstanceExists()) {
			return;
		}
		if (!mapped.isEmpty()) {
			throw anotherCopy(mapped);
		}
		if (agentOnCommandLine) {
			throw new SamplerUnavailableException("a profiling agent is configured on the command line ("
					+ String.join(", ", OtherProfilers.agentsOnCommandLine()) + "); two async-profiler copies steal "
					+ "each other's samples. Remove it, or use spanprofile.engine=jfr");
		}
	}

	private static SamplerUnavailableException anotherCopy(Set<String> mapped) {
		return new SamplerUnavailableException("another async-profiler is already loaded in this JVM ("
				+ String.join(", ", mapped) + "); two copies steal each other's samples. Remove it, or use "
				+ "spanprofile.engine=jfr");
	}

	/**
	 * Whether this class loader's async-profiler API already loaded its library (then it is shared, not foreign).
	 * {@code getInstance(path)} hands out the existing instance without looking at the path, and loads nothing when
	 * there is none and the path does not exist: a probe that uses the library's public API only.
	 */
	private static boolean ourInstanceExists() {
		try {
			AsyncProfiler.getInstance(PROBE_PATH);
			return true;
		}
		catch (UnsatisfiedLinkError | RuntimeException ex) {
			return false;
		}
	}

	String startCommand(Path file) {
		long interval = this.settings.interval().toNanos();
		ProfilingEvent cpuEvent = cpuEventOnThisPlatform();
		StringBuilder command = new StringBuilder("start,jfr,clock=monotonic");
		if (cpuEvent != null) {
			command.append(",event=").append(cpuEvent.id()).append(",interval=").append(interval);
			if (this.settings.wall()) {
				command.append(",wall=").append(interval);
			}
		}
		else if (this.settings.wall()) {
			command.append(",event=wall,interval=").append(interval);
		}
		if (this.settings.wall()) {
			// Wall samples only for threads inside a span, one event per sample so that each lands at its own time.
			command.append(",filter,nobatch");
		}
		if (this.settings.alloc()) {
			command.append(",alloc=").append(this.settings.allocInterval());
		}
		if (this.settings.lock()) {
			command.append(",lock=").append(this.settings.lockThreshold().toNanos());
		}
		return command.append(",file=").append(file).toString();
	}

	private ProfilingEvent cpuEventOnThisPlatform() {
		ProfilingEvent requested = this.settings.cpuEvent();
		return (requested != null) ? requested.onPlatform(System.getProperty("os.name")) : null;
	}

	/**
	 * The events in use: async-profiler says which engine it fell back to, e.g. when perf_events are not
	 * permitted, and ctimer is itimer where there are no per-thread timers.
	 */
	private String detectEvent(String response) {
		String requested = this.settings.eventsDescriptionOn(System.getProperty("os.name"));
		if (response == null || this.settings.cpuEvent() != ProfilingEvent.CPU) {
			return requested;
		}
		String lower = response.toLowerCase(Locale.ROOT);
		for (String fallback : new String[] { "ctimer", "itimer" }) {
			if (lower.contains(fallback)) {
				return requested.replace("cpu", fallback);
			}
		}
		return requested;
	}

	private static String status(AsyncProfiler profiler) {
		try {
			return profiler.execute("status");
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	@Override
	public synchronized long collect(SampleSink sink) throws IOException {
		if (!this.started) {
			return System.nanoTime();
		}
		if (this.recording == null) {
			restartRecording("the last attempt to start a recording failed");
			return System.nanoTime();
		}
		// Samples taken before the dump are in the chunk it completes; later ones go to the next chunk.
		long completeUpTo = System.nanoTime();
		this.profiler.execute("dump,jfr");
		boolean completedAChunk;
		try {
			completedAChunk = drain(sink);
		}
		catch (NoSuchFileException ex) {
			// Deleted under us, say by a temp-directory cleaner: the profiler would write on into a file nobody can
			// open, and that no rotation ever frees.
			String deleted = "the recording " + this.recording.path() + " was deleted";
			restartRecording(deleted);
			throw new IOException("Samples were lost: " + deleted + "; started a new one", ex);
		}
		catch (IOException ex) {
			// Damaged chunks mostly come from failed writes; the free space tells whether the disk is why.
			throw new IOException("Reading " + this.recording.path() + " failed (" + freeSpace() + "): "
					+ ex.getMessage(), ex);
		}
		if (this.recording.length() > ROTATE_BYTES) {
			rotate(sink);
		}
		if (!completedAChunk) {
			// Every dump completes a chunk, even one without samples: none means nothing reaches the file.
			String stall = describeStall();
			if (++this.stalledDumps >= STALLED_DUMPS_BEFORE_RESTART) {
				// A chunk whose header a failed write left unfinished never completes, and every chunk after it
				// waits behind it: once the disk has room again only a new file gets samples through.
				this.stalledDumps = 0;
				restartRecording(stall);
				throw new IOException(stall + "; started a new recording");
			}
			throw new IOException(stall);
		}
		this.stalledDumps = 0;
		return completeUpTo;
	}

	/** @return whether a completed chunk was found */
	private boolean drain(SampleSink sink) throws IOException {
		ByteBuffer chunks = this.recording.completedChunks();
		if (chunks == null) {
			return false;
		}
		this.parser.parse(chunks, sink);
		return true;
	}

	private String describeStall() {
		return "async-profiler completed no chunk in " + this.recording.path() + " at the last dump: its writes do "
				+ "not reach the file. Is the disk full? (" + freeSpace() + ")";
	}

	/** Usable bytes in the work directory; when unknown (say, deleted), as if there were room. */
	private long usableSpace() {
		try {
			return Files.getFileStore(this.settings.workDirectory()).getUsableSpace();
		}
		catch (IOException ex) {
			return Long.MAX_VALUE;
		}
	}

	private String freeSpace() {
		Path directory = this.settings.workDirectory();
		try {
			return directory + ": " + Files.getFileStore(directory).getUsableSpace() + " bytes usable";
		}
		catch (IOException ex) {
			return directory + ": usable space unknown";
		}
	}

	private void rotate(SampleSink sink) throws IOException {
		JfrChunkFile finished = this.recording;
		this.recorder.setThreadListener(null);
		this.profiler.execute("stop");
		try {
			drain(sink);
		}
		finally {
			// Read or not, the stopped file is done with: the next one starts below or at the next collect.
			this.recording = null;
			RecordingFiles.delete(finished.path());
		}
		try {
			startRecording();
		}
		catch (SamplerUnavailableException ex) {
			// The next collect tries again.
			throw new IOException(ex.getMessage(), ex);
		}
	}

	/** Give up the current recording, if any, and start a new file. */
	private void restartRecording(String reason) throws IOException {
		if (this.recording != null) {
			stopQuietly();
			RecordingFiles.delete(this.recording.path());
			this.recording = null;
		}
		this.recorder.setThreadListener(null);
		long usable = usableSpace();
		if (usable < ROOM_TO_RESTART) {
			throw new IOException("Waiting for " + ROOM_TO_RESTART + " usable bytes in " + this.settings.workDirectory()
					+ " to start a new recording after " + reason + " (" + usable + " bytes usable)");
		}
		try {
			Files.createDirectories(this.settings.workDirectory());
			startRecording();
		}
		catch (IOException | SamplerUnavailableException ex) {
			throw new IOException("Cannot start a new recording in " + this.settings.workDirectory() + " after "
					+ reason + ": " + ex.getMessage(), ex);
		}
	}

	private void stopQuietly() {
		try {
			this.profiler.execute("stop");
		}
		catch (IOException | RuntimeException ex) {
			logger.log(System.Logger.Level.DEBUG, "Stopping async-profiler failed", ex);
		}
	}

	@Override
	public synchronized void close() {
		this.started = false;
		this.recorder.setThreadListener(null);
		if (this.recording == null) {
			return;
		}
		stopQuietly();
		RecordingFiles.delete(this.recording.path());
		this.recording = null;
	}

	/**
	 * Load the native library: from an explicit path, extracted into a chosen directory (a noexec temp directory is
	 * common in hardened containers), or the library's own default extraction. Extraction is async-profiler's own:
	 * its {@code one.profiler.extractPath} property names the directory, set only for the duration of the load.
	 */
	static AsyncProfiler load(SamplerSettings settings) throws SamplerUnavailableException {
		try {
			if (settings.nativeLibraryPath() != null) {
				return AsyncProfiler.getInstance(settings.nativeLibraryPath().toAbsolutePath().toString());
			}
			if (settings.nativeLibraryDirectory() != null) {
				return extractInto(settings.nativeLibraryDirectory());
			}
			return AsyncProfiler.getInstance();
		}
		catch (SamplerUnavailableException ex) {
			throw ex;
		}
		catch (Throwable ex) {
			// UnsatisfiedLinkError (musl, Windows, noexec), SecurityException, ...: never take the application down.
			throw new SamplerUnavailableException("async-profiler's native library cannot be loaded on "
					+ System.getProperty("os.name") + "/" + System.getProperty("os.arch") + ": " + ex, ex);
		}
	}

	private static AsyncProfiler extractInto(Path directory) throws SamplerUnavailableException {
		try {
			// The library creates its temp file in the directory but does not create the directory.
			Files.createDirectories(directory);
		}
		catch (IOException ex) {
			throw cannotExtract(directory, ex);
		}
		// getInstance is synchronized on the class: holding the same lock keeps other loads from seeing our property.
		synchronized (AsyncProfiler.class) {
			String previous = System.getProperty(EXTRACT_PATH_PROPERTY);
			System.setProperty(EXTRACT_PATH_PROPERTY, directory.toAbsolutePath().toString());
			try {
				return AsyncProfiler.getInstance();
			}
			catch (IllegalStateException ex) {
				// What the library throws when it cannot write its copy.
				throw cannotExtract(directory, (ex.getCause() != null) ? ex.getCause() : ex);
			}
			finally {
				if (previous != null) {
					System.setProperty(EXTRACT_PATH_PROPERTY, previous);
				}
				else {
					System.clearProperty(EXTRACT_PATH_PROPERTY);
				}
			}
		}
	}

	private static SamplerUnavailableException cannotExtract(Path directory, Throwable cause) {
		return new SamplerUnavailableException(
				"Cannot extract async-profiler's native library into " + directory + ": " + cause, cause);
	}

}
