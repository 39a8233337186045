package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of another process from the operating system. On Linux the sum of its threads'
 * scheduler run times (nanoseconds, {@code /proc/PID/task/TID/schedstat}), with the
 * shares of the JIT compiler threads, spanprofile's collector thread and the request
 * threads apart: the process-wide figure Java offers counts clock ticks of 10 ms, too
 * coarse for windows of a few seconds, and cannot tell whether the JIT is still busy. A
 * window's CPU time is the difference of two readings taken thread by thread
 * ({@link Usage#minus}): a thread that ends within a window loses only what it ran in it
 * since the first reading.
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
				Map<String, ThreadTime> byThread = new HashMap<>();
				threads.forEach((thread) -> {
					String name = name(thread);
					// HotSpot's "C1 CompilerThread0", "C2 CompilerThread1"; Linux keeps
					// 15 characters of a name, so
					// Tomcat's connector threads ("http-nio-127.0.0.1-PORT-exec-N") are
					// "http-nio-127.0.", Reactor Netty's event loops
					// ("reactor-http-nio-N")
					// "reactor-http-ni".
					byThread.put(thread.getFileName().toString(),
							new ThreadTime(runNanos(thread), name.contains("CompilerThre"),
									name.startsWith("spanprofile-col"),
									name.startsWith("http-nio") || name.startsWith("reactor-http")));
				});
				return Usage.of(byThread);
			}
			catch (IOException | RuntimeException ex) {
				// Fall back to the coarse figure below.
			}
		}
		Duration total = this.process.info()
			.totalCpuDuration()
			.orElseThrow(() -> new IllegalStateException(
					"The OS does not report the CPU time of process " + this.process.pid()));
		return new Usage(total, Duration.ZERO, Duration.ZERO, Duration.ZERO, Map.of());
	}

	/**
	 * CPU time and times scheduled in so far per group of threads, the group being the
	 * thread's name without digits ("http-nio--exec-", "C CompilerThread", "GC Thread#"):
	 * which threads pay for what, in diagnostics. Times scheduled in count every wake-up,
	 * so waits on a lock or a queue show there even where they cost little CPU.
	 */
	Map<String, GroupUsage> byThreadGroup() {
		Map<String, GroupUsage> groups = new TreeMap<>();
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

	/**
	 * Run time (ns), time waiting to run (ns), times scheduled in; zeros for a thread
	 * that ended meanwhile.
	 */
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

	/**
	 * One thread's CPU time so far (ns), and which of {@link Usage}'s parts it counts in
	 * besides the total.
	 */
	record ThreadTime(long runNanos, boolean compiler, boolean collector, boolean request) {

		/**
		 * Adds {@code nanos} to the sums, in {@link Usage}'s order: total, compiler,
		 * collector, request threads.
		 */
		void addTo(long[] sums, long nanos) {
			sums[0] += nanos;
			if (this.compiler) {
				sums[1] += nanos;
			}
			else if (this.collector) {
				sums[2] += nanos;
			}
			else if (this.request) {
				sums[3] += nanos;
			}
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
	 * @param collector of which spanprofile's collector thread's (draining change points,
	 * dumping and parsing the recording, joining samples to spans)
	 * @param requestThreads of which the application's request threads' (Tomcat's
	 * connector threads, Reactor Netty's event loops; not the threads work is handed to)
	 * @param threads each thread's time, by thread id (empty in a difference, or where
	 * the OS lists no threads)
	 */
	record Usage(Duration total, Duration compiler, Duration collector, Duration requestThreads,
			Map<String, ThreadTime> threads) {

		static Usage of(Map<String, ThreadTime> threads) {
			long[] nanos = new long[4];
			threads.values().forEach((thread) -> thread.addTo(nanos, thread.runNanos()));
			return of(nanos, Map.copyOf(threads));
		}

		private static Usage of(long[] sums, Map<String, ThreadTime> threads) {
			return new Usage(Duration.ofNanos(sums[0]), Duration.ofNanos(sums[1]), Duration.ofNanos(sums[2]),
					Duration.ofNanos(sums[3]), threads);
		}

		/**
		 * The CPU time used since {@code earlier}, thread by thread. A thread that ended
		 * in between is missing from this reading, and what it ran since the earlier one
		 * is lost with it; subtracting the totals instead lost its whole past. HotSpot
		 * starts and stops compiler threads as its queue grows and shrinks, and one that
		 * ended took 1.2 s of earlier compiling out of a 1 s window (CPU per request came
		 * out at a third of the same figure without the compiler threads).
		 */
		Usage minus(Usage earlier) {
			if (this.threads.isEmpty() || earlier.threads.isEmpty()) {
				return new Usage(this.total.minus(earlier.total), this.compiler.minus(earlier.compiler),
						this.collector.minus(earlier.collector), this.requestThreads.minus(earlier.requestThreads),
						Map.of());
			}
			long[] nanos = new long[4];
			this.threads.forEach((id, thread) -> {
				ThreadTime before = earlier.threads.get(id);
				// A thread id the kernel gave again to a new thread: all of the new one's
				// time is in the interval.
				boolean same = before != null && before.runNanos() <= thread.runNanos();
				thread.addTo(nanos, same ? thread.runNanos() - before.runNanos() : thread.runNanos());
			});
			return of(nanos, Map.of());
		}

		/**
		 * Whether the JIT compiler threads took more than 2 % of this CPU time: still
		 * compiling, so that a window would measure the JIT rather than the profiler.
		 */
		boolean jitBusy() {
			return this.compiler.toNanos() > this.total.toNanos() * 0.02;
		}

	}

}
