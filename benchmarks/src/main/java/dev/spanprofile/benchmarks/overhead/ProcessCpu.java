package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * CPU time of another process from the operating system. On Linux the sum of its threads' scheduler run times
 * (nanoseconds, {@code /proc/PID/task/TID/schedstat}), with the shares of the JIT compiler threads and of
 * spanprofile's collector thread apart: the process-wide figure Java offers counts clock ticks of 10 ms, too coarse
 * for windows of a few seconds, and cannot tell whether the JIT is still busy. Threads that end within a window take their time with them, so windows are
 * placed where the thread set is stable.
 */
final class ProcessCpu {

	private final ProcessHandle process;

	private final Path tasks;

	ProcessCpu(ProcessHandle process) {
		this.process = process;
		this.tasks = Path.of("/proc", Long.toString(process.pid()), "task");
	}

	Usage used() {
		if (Files.isDirectory(this.tasks)) {
			try (Stream<Path> threads = Files.list(this.tasks)) {
				long[] nanos = new long[3];
				threads.forEach((thread) -> {
					long run = runNanos(thread);
					String name = name(thread);
					nanos[0] += run;
					// HotSpot's "C1 CompilerThread0", "C2 CompilerThread1"; Linux keeps 15 characters of a name.
					if (name.contains("CompilerThre")) {
						nanos[1] += run;
					}
					else if (name.startsWith("spanprofile-col")) {
						nanos[2] += run;
					}
				});
				return new Usage(Duration.ofNanos(nanos[0]), Duration.ofNanos(nanos[1]), Duration.ofNanos(nanos[2]));
			}
			catch (IOException | RuntimeException ex) {
				// Fall back to the coarse figure below.
			}
		}
		Duration total = this.process.info()
			.totalCpuDuration()
			.orElseThrow(() -> new IllegalStateException("The OS does not report the CPU time of process "
					+ this.process.pid()));
		return new Usage(total, Duration.ZERO, Duration.ZERO);
	}

	/**
	 * CPU time so far per group of threads, the group being the thread's name without digits ("http-nio--exec-",
	 * "C CompilerThread", "GC Thread#"): which threads pay for what, in diagnostics.
	 */
	java.util.Map<String, Long> byThreadGroup() {
		java.util.Map<String, Long> groups = new java.util.TreeMap<>();
		try (Stream<Path> threads = Files.list(this.tasks)) {
			threads.forEach((thread) -> groups.merge(name(thread).replaceAll("[0-9]", ""), runNanos(thread), Long::sum));
		}
		catch (IOException ex) {
			// No per-thread figures on this system.
		}
		return groups;
	}

	private static long runNanos(Path thread) {
		try {
			String schedstat = Files.readString(thread.resolve("schedstat")).trim();
			int end = schedstat.indexOf(' ');
			return Long.parseLong((end > 0) ? schedstat.substring(0, end) : schedstat);
		}
		catch (IOException ex) {
			// The thread ended between listing and reading.
			return 0;
		}
	}

	private static String name(Path thread) {
		try {
			return Files.readString(thread.resolve("comm")).trim();
		}
		catch (IOException ex) {
			return "";
		}
	}

	/**
	 * @param total CPU time of all threads
	 * @param compiler of which the JIT compiler threads'
	 * @param collector of which spanprofile's collector thread's (draining change points, dumping and parsing the
	 * recording, joining samples to spans)
	 */
	record Usage(Duration total, Duration compiler, Duration collector) {

		Usage minus(Usage earlier) {
			return new Usage(this.total.minus(earlier.total), this.compiler.minus(earlier.compiler),
					this.collector.minus(earlier.collector));
		}

	}

}
