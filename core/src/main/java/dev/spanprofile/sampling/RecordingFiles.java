package dev.spanprofile.sampling;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of async-profiler's recording files, {@code spanprofile-<pid>-<n>.jfr}, and
 * the deletion of those that a process which is gone left behind (killed before its
 * close, or a crash). The work directory may be shared by several instances, so a file is
 * only deleted when nothing can still be writing it: its process is not alive and it has
 * not been written for longer than any live recording goes unwritten.
 */
final class RecordingFiles {

	private static final System.Logger logger = System.getLogger(RecordingFiles.class.getName());

	private static final Pattern NAME = Pattern.compile("spanprofile-(\\d{1,18})-\\d{1,10}\\.jfr");

	/**
	 * A live recording is appended at every dump, a second or so apart. A process in
	 * another pid namespace (another container sharing the directory) looks gone from
	 * here: only its file's age says it still writes.
	 */
	static final Duration UNWRITTEN_WHEN_ABANDONED = Duration.ofMinutes(10);

	/**
	 * Unique in this JVM, so that two engines one after the other never write the same
	 * file.
	 */
	private static final AtomicInteger counter = new AtomicInteger();

	private RecordingFiles() {
	}

	/** A file name of our own for a new recording in {@code directory}. */
	static Path next(Path directory) {
		return directory
			.resolve("spanprofile-" + ProcessHandle.current().pid() + "-" + counter.getAndIncrement() + ".jfr");
	}

	/**
	 * Delete a recording this engine gave up; a file that cannot be deleted is only
	 * logged.
	 */
	static void delete(Path file) {
		try {
			Files.deleteIfExists(file);
		}
		catch (IOException ex) {
			logger.log(System.Logger.Level.DEBUG, "Could not delete " + file, ex);
		}
	}

	/**
	 * Delete the recordings in {@code directory} that processes which are gone left
	 * behind.
	 * @return how many were deleted
	 */
	static int deleteAbandoned(Path directory) {
		long ownPid = ProcessHandle.current().pid();
		Instant writtenBefore = Instant.now().minus(UNWRITTEN_WHEN_ABANDONED);
		int deleted = 0;
		try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "spanprofile-*.jfr")) {
			for (Path file : files) {
				Matcher name = NAME.matcher(file.getFileName().toString());
				if (!name.matches()) {
					continue;
				}
				long pid = Long.parseLong(name.group(1));
				// Our own files are deleted by whichever engine of ours wrote them.
				if (pid == ownPid || isAlive(pid)
						|| !Files.getLastModifiedTime(file).toInstant().isBefore(writtenBefore)) {
					continue;
				}
				if (Files.deleteIfExists(file)) {
					deleted++;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Leftovers waste space but harm nothing: never let them stop profiling.
			logger.log(System.Logger.Level.DEBUG, "Could not look for abandoned recordings in " + directory, ex);
		}
		if (deleted > 0) {
			logger.log(System.Logger.Level.INFO, "spanprofile: deleted " + deleted + " recording file(s) in "
					+ directory + " left by processes that are gone");
		}
		return deleted;
	}

	private static boolean isAlive(long pid) {
		return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
	}

}
