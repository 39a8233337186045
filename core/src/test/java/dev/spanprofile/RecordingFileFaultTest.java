package dev.spanprofile;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.spanprofile.lifecycle.Collector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * The recording file under the real engine goes bad: deleted by someone cleaning the temp
 * directory, or on a disk that fills up. The application's work goes on, the problem is
 * logged once, and spans get samples again once the file can be written.
 */
class RecordingFileFaultTest {

	private static final int ATTEMPTS = 10;

	@TempDir
	Path temp;

	private ExecutorService application;

	@BeforeEach
	void startApplication() {
		this.application = Executors.newSingleThreadExecutor((task) -> new Thread(task, "application"));
	}

	@AfterEach
	void stopApplication() {
		this.application.shutdownNow();
	}

	@Test
	void aDeletedRecordingIsReplacedAndProfilingGoesOn() throws Exception {
		Path work = this.temp.resolve("work");
		try (WarningLog log = WarningLog.of(Collector.class); TracedProfiler traced = new TracedProfiler(work)) {
			String before = request(traced, "before", () -> Workloads.burnAlpha(300));
			traced.profiler.collectNow();
			assertThat(traced.samplesIn(before, "alphaHotMethod")).as("samples before the fault").isGreaterThan(15);

			deleteRecursively(work);
			for (int i = 0; i < 3; i++) {
				request(traced, "during", () -> Workloads.burnBeta(100));
			}
			Thread.sleep(3 * TracedProfiler.DUMP_INTERVAL.toMillis());
			String after = firstSpanWithSamplesAgain(traced);

			System.out.printf("deleted recording: warnings %s, files now %s%n", log.warnings(), list(work));
			assertThat(log.warnings()).hasSize(1);
			assertThat(log.warnings().get(0)).contains(work.toString());
			assertThat(traced.samplesIn(after, "alphaHotMethod") + traced.samplesIn(after, "betaHotMethod")).isZero();
			assertThat(list(work)).as("the new recording").singleElement().asString().endsWith(".jfr");
		}
	}

	@Test
	void aFullDiskIsReportedOnceAndProfilingResumesWhenSpaceIsBack() throws Exception {
		Path disk = Files.createDirectory(this.temp.resolve("disk"));
		Tmpfs.assumeMounted(Tmpfs.mount(disk, "4m"), "the full-disk test");
		try {
			try (WarningLog log = WarningLog.of(Collector.class); TracedProfiler traced = new TracedProfiler(disk)) {
				String before = request(traced, "before", () -> Workloads.burnAlpha(300));
				traced.profiler.collectNow();
				assertThat(traced.samplesIn(before, "alphaHotMethod")).as("samples before the fault").isGreaterThan(15);
				assertThat(log.warnings()).isEmpty();

				Path filler = disk.resolve("filler");
				long filled = fill(filler);
				List<String> during = new ArrayList<>();
				for (int i = 0; i < 4; i++) {
					during.add(request(traced, "during", () -> Workloads.burnBeta(150)));
				}
				Thread.sleep(4 * TracedProfiler.DUMP_INTERVAL.toMillis());
				List<String> warningsWhileFull = log.warnings();

				Files.delete(filler);
				String after = firstSpanWithSamplesAgain(traced);

				System.out.printf("full disk: filled %d bytes; warnings while full %s; after: gamma=%d; %s%n", filled,
						warningsWhileFull, traced.samplesIn(after, "gammaHotMethod"),
						traced.profiler.attributionStats());
				assertThat(during).as("requests served while the disk was full").hasSize(4);
				assertThat(warningsWhileFull).hasSize(1);
				assertThat(warningsWhileFull.get(0)).as("the warning points at the disk")
					.contains(disk + ": 0 bytes usable");
				assertThat(log.warnings()).as("warnings after recovering").hasSize(1);
				assertThat(traced.samplesIn(after, "alphaHotMethod") + traced.samplesIn(after, "betaHotMethod"))
					.isZero();
				List<String> files = list(disk);
				System.out.printf("full disk: files after recovering %s%n", files);
				assertThat(files).as("the recording given up on the full disk is deleted; only the new one is left")
					.singleElement()
					.asString()
					.endsWith(".jfr");
			}
			assertThat(list(disk)).as("files after the profiler stopped").isEmpty();
		}
		finally {
			Tmpfs.unmount(disk);
		}
	}

	@Test
	void recordingsLeftByAProcessThatIsGoneAreDeletedAtStart() throws Exception {
		Path work = Files.createDirectory(this.temp.resolve("shared"));
		long gone = exitedProcess();
		long alive = ProcessHandle.current().parent().orElseThrow().pid();
		FileTime anHourAgo = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
		Path crashed = leftover(work, "spanprofile-" + gone + "-3.jfr", anHourAgo);
		Path anotherInstance = leftover(work, "spanprofile-" + alive + "-0.jfr", anHourAgo);
		// A process this JVM cannot see (another container's pid namespace) still writing
		// at every dump.
		Path justWritten = leftover(work, "spanprofile-" + gone + "-4.jfr", FileTime.from(Instant.now()));
		Path notOurs = leftover(work, "spanprofile-" + gone + "-notes.jfr", anHourAgo);
		try (TracedProfiler traced = new TracedProfiler(work)) {
			List<String> files = list(work);
			System.out.printf("leftovers: files after start %s%n", files);
			assertThat(crashed).as("a recording of a process that is gone").doesNotExist();
			assertThat(anotherInstance).as("a live process's recording").exists();
			assertThat(justWritten).as("a recording written moments ago").exists();
			assertThat(notOurs).as("a file not named as our recordings are").exists();
			assertThat(files).hasSize(4);
		}
	}

	/** The pid of a process that has exited. */
	private static long exitedProcess() throws Exception {
		Process process = new ProcessBuilder("true").start();
		assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
		long pid = process.pid();
		assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
		return pid;
	}

	private static Path leftover(Path directory, String name, FileTime modified) throws IOException {
		Path file = Files.write(directory.resolve(name), new byte[] { 'F', 'L', 'R', 0 });
		Files.setLastModifiedTime(file, modified);
		return file;
	}

	/**
	 * A request: a root span on the application thread, which must complete whatever the
	 * profiler goes through.
	 */
	private String request(TracedProfiler traced, String name, Runnable work) throws Exception {
		return this.application.submit(() -> traced.inRootSpan(name, work)).get(60, TimeUnit.SECONDS);
	}

	private String firstSpanWithSamplesAgain(TracedProfiler traced) throws Exception {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			String span = request(traced, "after", () -> Workloads.burnGamma(300));
			traced.profiler.collectNow();
			if (traced.samplesIn(span, "gammaHotMethod") > 15) {
				return span;
			}
		}
		throw new AssertionError(
				"No span got samples again in " + ATTEMPTS + " attempts: " + traced.profiler.attributionStats());
	}

	/** Write until the file system says it is full. */
	private static long fill(Path file) throws IOException {
		byte[] block = new byte[64 * 1024];
		long written = 0;
		try (OutputStream out = Files.newOutputStream(file)) {
			while (written < 64L * 1024 * 1024) {
				out.write(block);
				written += block.length;
			}
		}
		catch (IOException ex) {
			assertThat(ex).hasMessageContaining("No space left on device");
			return written;
		}
		throw new AssertionError("Wrote 64 MiB into a 4 MiB file system without running out of space");
	}

	private static List<String> list(Path directory) throws IOException {
		try (Stream<Path> files = Files.list(directory)) {
			return files.map((file) -> file.getFileName().toString()).toList();
		}
	}

	private static void deleteRecursively(Path directory) throws IOException {
		try (Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(file);
			}
		}
		assertThatIOException().isThrownBy(() -> Files.size(directory));
	}

}
