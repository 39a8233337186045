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
	 * CPU time and times scheduled in so far per group of threads, the group being the thread's name without digits
	 * ("http-nio--exec-", "C CompilerThread", "GC Thread#"): which threads pay for what, in diagnostics. Times
	 * scheduled in count every wake-up, so waits on a lock or a queue show there even where they cost little CPU.
	 */
	java.util.Map<String, GroupUsage> byThreadGroup() {
		java.util.Map<String, GroupUsage> groups = new java.util.TreeMap<>();
		try (Stream<Path> threads = Files.list(this.tasks)) {
			threads.forEach((thread) -> groups.merge(name(thread).replaceAll("[0-9]", ""), groupUsage(thread),
					GroupUsage::plus));
		}
		catch (IOException ex) {
			// No per-thread figures on this system.
		}
		return groups;
	}

	private static long runNanos(Path thread) {
		return schedstat(thread)[0];
	}

	private static GroupUsage groupUsage(Path thread) {
		long[] fields = schedstat(thread);
		return new GroupUsage(fields[0], fields[2]);
	}

	/** Run time (ns), time waiting to run (ns), times scheduled in; zeros for a thread that ended meanwhile. */
	private static long[] schedstat(Path thread) {
		long[] fields = new long[3];
		try {
			String[] values = Files.readString(thread.resolve("schedstat")).trim().split(" ");
			for (int i = 0; i < Math.min(values.length, fields.length); i++) {
				fields[i] = Long.parseLong(values[i]);
			}
		}
		catch (IOException | NumberFormatException ex) {
			// The thread ended between listing and reading.
		}
		return fields;
	}

	private static String name(Path thread) {
		try {
			return Files.readString(thread.resolve("comm")).trim();
		}
		catch (IOException ex) {
			return "";
		}
	}

	/** One thread group's CPU time (ns) and how often its threads were scheduled in. */
	record GroupUsage(long runNanos, long timesScheduled) {

		GroupUsage plus(GroupUsage other) {
			return new GroupUsage(this.runNanos + other.runNanos, this.timesScheduled + other.timesScheduled);
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

		/**
		 * Whether the JIT compiler threads took more than 2 % of this CPU time: still compiling, so that a window
		 * would measure the JIT rather than the profiler.
		 */
		boolean jitBusy() {
			return this.compiler.toNanos() > this.total.toNanos() * 0.02;
		}

	}

}
