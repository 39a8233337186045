package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

/**
 * The peer: async-profiler on its own, loaded into an application whose spanprofile is
 * switched off, and started and stopped there with {@code jcmd … JVMTI.agent_load}
 * instead of through the actuator. Started with what spanprofile's engine starts it with
 * ({@code jfr,clock=monotonic,event=cpu,interval=10ms}), the two differ only in what
 * spanprofile does with the samples; other options show what each part of
 * async-profiler's work costs.
 */
final class AsyncProfilerAlone {

	private final Path library;

	private final String options;

	private AsyncProfilerAlone(Path library, String options) {
		this.library = library;
		this.options = options;
	}

	/**
	 * The library bundled in the async-profiler jar on this class path, copied into
	 * {@code directory}.
	 * @param options what follows {@code start,}, e.g.
	 * {@code jfr,clock=monotonic,event=cpu,interval=10ms}
	 */
	static AsyncProfilerAlone extract(String options, Path directory) throws IOException {
		String platform = System.getProperty("os.arch").contains("aarch64") ? "linux-arm64" : "linux-x64";
		String resource = platform + "/libasyncProfiler.so";
		Files.createDirectories(directory);
		Path library = directory.resolve("libasyncProfiler.so").toAbsolutePath();
		try (InputStream in = ClassLoader.getSystemResourceAsStream(resource)) {
			if (in == null) {
				throw new IOException("No " + resource + " on the class path: async-profiler's jar is missing");
			}
			Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
		}
		return new AsyncProfilerAlone(library, options);
	}

	/**
	 * Start or stop async-profiler in the application's JVM; {@code recording} takes the
	 * samples.
	 */
	void set(long pid, boolean on, Path recording) throws IOException, InterruptedException {
		String command = on ? "start," + this.options + ",file=" + recording.toAbsolutePath() : "stop";
		// jcmd parses name=value pairs itself: the agent's options go through as one
		// quoted argument.
		Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
				Long.toString(pid), "JVMTI.agent_load", this.library.toString(), "\"" + command + "\"")
			.redirectErrorStream(true)
			.start();
		String output = new String(jcmd.getInputStream().readAllBytes());
		if (!jcmd.waitFor(30, TimeUnit.SECONDS) || jcmd.exitValue() != 0 || output.contains("rror")) {
			throw new IOException("jcmd JVMTI.agent_load " + command + " failed: " + output);
		}
	}

}
