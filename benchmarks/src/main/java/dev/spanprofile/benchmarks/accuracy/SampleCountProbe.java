package dev.spanprofile.benchmarks.accuracy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import one.profiler.AsyncProfiler;

/**
 * Does async-profiler, on its own, take as many CPU samples as the threads used CPU time?
 * No spanprofile code runs: threads burn CPU in {@link HotMethods} while async-profiler
 * records to a Flight Recorder file with the options spanprofile's engine uses, and the
 * probe counts the recording's execution samples of those threads against their CPU time
 * over the interval. This is how the accuracy benchmark's shortfall on {@code ctimer} was
 * traced to the sampler rather than to the join (benchmarks/DECISIONS.md, ctimer).
 * <p>
 * Arguments: {@code --events cpu,ctimer}, {@code --threads N} (8), {@code --seconds S} (8
 * per event), {@code --no-clock-reads} to burn without reading the thread's CPU clock
 * every few hundred microseconds (which {@link HotMethods#burn} does to know when to
 * stop).
 */
public final class SampleCountProbe {

	private static final String THREAD_PREFIX = "sample-count-";

	private static final long INTERVAL_NANOS = 10_000_000;

	private static volatile boolean stop;

	private SampleCountProbe() {
	}

	public static void main(String[] args) throws Exception {
		String[] events = { "cpu", "ctimer" };
		int threads = 8;
		int seconds = 8;
		boolean clockReads = true;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--events" -> events = args[++i].split(",");
				case "--threads" -> threads = Integer.parseInt(args[++i]);
				case "--seconds" -> seconds = Integer.parseInt(args[++i]);
				case "--no-clock-reads" -> clockReads = false;
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
			}
		}
		System.out.printf(Locale.ROOT, "%d threads on %d cores, %d s per event, %s%n", threads,
				Runtime.getRuntime().availableProcessors(), seconds,
				clockReads ? "reading the thread CPU clock as they burn" : "no clock reads while burning");
		for (String event : events) {
			count(event, threads, seconds, clockReads);
		}
	}

	private static void count(String event, int threadCount, int seconds, boolean clockReads)
			throws IOException, InterruptedException {
		Path recording = Files.createTempFile("sample-count-" + event, ".jfr");
		AsyncProfiler profiler = AsyncProfiler.getInstance();
		long[] cpuNanos = new long[threadCount];
		Thread[] threads = new Thread[threadCount];
		stop = false;
		for (int t = 0; t < threadCount; t++) {
			int index = t;
			threads[t] = new Thread(() -> cpuNanos[index] = burnUntilStopped(index, clockReads), THREAD_PREFIX + t);
		}
		profiler
			.execute("start,jfr,clock=monotonic,event=" + event + ",interval=" + INTERVAL_NANOS + ",file=" + recording);
		for (Thread thread : threads) {
			thread.start();
		}
		// A dump every second, as spanprofile's collector does: async-profiler pauses
		// sampling while it writes one.
		for (int second = 0; second < seconds; second++) {
			Thread.sleep(1000);
			profiler.execute("dump,jfr");
		}
		stop = true;
		for (Thread thread : threads) {
			thread.join();
		}
		profiler.execute("stop");
		long samples = countSamples(recording);
		Files.deleteIfExists(recording);
		long totalCpu = 0;
		for (long nanos : cpuNanos) {
			totalCpu += nanos;
		}
		double expected = totalCpu / (double) INTERVAL_NANOS;
		System.out.printf(Locale.ROOT, "  %-7s %6d samples, %8.1f expected from CPU time: %.3f%n", event, samples,
				expected, samples / expected);
	}

	private static long burnUntilStopped(int index, boolean clockReads) {
		long start = HotMethods.cpuNanos();
		while (!stop) {
			if (clockReads) {
				HotMethods.burn(index % HotMethods.COUNT, 1_000_000);
			}
			else {
				HotMethods.sink += HotMethods.hot0(100_000);
			}
		}
		return HotMethods.cpuNanos() - start;
	}

	private static long countSamples(Path recording) throws IOException {
		long samples = 0;
		try (RecordingFile file = new RecordingFile(recording)) {
			while (file.hasMoreEvents()) {
				RecordedEvent event = file.readEvent();
				if (!event.getEventType().getName().equals("jdk.ExecutionSample")) {
					continue;
				}
				RecordedThread thread = event.getThread("sampledThread");
				String name = (thread != null) ? thread.getJavaName() : null;
				if (name != null && name.startsWith(THREAD_PREFIX)) {
					samples++;
				}
			}
		}
		return samples;
	}

}
