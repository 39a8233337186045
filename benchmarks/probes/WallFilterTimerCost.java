/*
 * Can async-profiler sample some threads faster than the rest, and what does it cost before any thread is chosen?
 * async-profiler's interval is one for the process; with `wall=INTERVAL,filter` beside the CPU event it also samples
 * wall clock, only on the threads added with AsyncProfiler.addThread. This starts the profiler with the options given,
 * parks N idle threads (a servlet container's workers), adds none to the filter, and prints the CPU each thread took
 * over the window, from /proc/self/task/<tid>/schedstat: async-profiler's wall-clock timer thread is the new one.
 *
 *   javac -cp async-profiler.jar -d /tmp/probe benchmarks/probes/WallFilterTimerCost.java
 *   java -cp async-profiler.jar:/tmp/probe WallFilterTimerCost LIBRARY OPTIONS IDLE_THREADS WINDOW_MILLIS
 *
 * e.g. OPTIONS `event=ctimer,interval=20ms` against `event=ctimer,interval=20ms,wall=5ms,filter`. LIBRARY is the
 * path of libasyncProfiler.so (in the jar under linux-x64/). benchmarks/DECISIONS.md (more samples for slow requests)
 * says what it showed.
 */

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import one.profiler.AsyncProfiler;

public class WallFilterTimerCost {

	public static void main(String[] args) throws Exception {
		AsyncProfiler profiler = AsyncProfiler.getInstance(args[0]);
		int idle = Integer.parseInt(args[2]);
		long window = Long.parseLong(args[3]);
		for (int i = 0; i < idle; i++) {
			Thread thread = new Thread(LockSupport::park, "idle-" + i);
			thread.setDaemon(true);
			thread.start();
		}
		Path jfr = Files.createTempFile("wall-filter", ".jfr");
		profiler.execute("start," + args[1] + ",jfr,file=" + jfr);
		Thread.sleep(1000);
		Map<String, Long> before = threadCpu();
		Thread.sleep(window);
		Map<String, Long> after = threadCpu();
		profiler.execute("stop");
		Files.deleteIfExists(jfr);
		long total = 0;
		for (Map.Entry<String, Long> thread : after.entrySet()) {
			long nanos = thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
			total += nanos;
			if (nanos > 1_000_000) {
				System.out.printf(Locale.ROOT, "  %s %.2f ms CPU per second%n", thread.getKey(),
						nanos / 1e6 / (window / 1000.0));
			}
		}
		System.out.printf(Locale.ROOT, "%s, %d idle threads: all threads %.2f ms CPU per second%n", args[1], idle,
				total / 1e6 / (window / 1000.0));
	}

	private static Map<String, Long> threadCpu() throws Exception {
		Map<String, Long> cpu = new HashMap<>();
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
			for (Path task : tasks) {
				try {
					String name = Files.readString(task.resolve("comm")).trim();
					long nanos = Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
					cpu.merge(name.startsWith("idle-") ? "idle-*" : name + "#" + task.getFileName(), nanos, Long::sum);
				}
				catch (Exception exited) {
					// A thread that ended between the listing and the read.
				}
			}
		}
		return cpu;
	}

}
