package dev.spanprofile.benchmarks.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine the figures were measured on, as far as the JVM and Linux tell.
 *
 * @param loadAverage the system load average over the last minute when the run started
 * (other work on the machine)
 */
public record Machine(int cores, String cpu, long memoryBytes, String os, String jdk, double loadAverage) {

	public static Machine current() {
		var os = ManagementFactory.getOperatingSystemMXBean();
		long memory = (os instanceof com.sun.management.OperatingSystemMXBean sun) ? sun.getTotalMemorySize() : -1;
		return new Machine(Runtime.getRuntime().availableProcessors(), cpuModel(), memory,
				System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
						+ System.getProperty("os.arch"),
				System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
						+ System.getProperty("java.vm.vendor") + ")",
				os.getSystemLoadAverage());
	}

	/**
	 * Cores, CPU, memory, OS and JDK, as the results files and the page name the machine.
	 */
	public String description() {
		return String.format(java.util.Locale.ROOT, "%d cores (%s), %.0f GiB, %s, %s", this.cores, this.cpu,
				this.memoryBytes / (1024.0 * 1024 * 1024), this.os, this.jdk);
	}

	private static String cpuModel() {
		try {
			List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
			for (String line : lines) {
				if (line.startsWith("model name")) {
					return line.substring(line.indexOf(':') + 1).trim();
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux, or not readable: the core count still says the most.
		}
		return "unknown CPU";
	}

}
