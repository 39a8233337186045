package dev.spanprofile.sampling;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * Finds native profilers that another component of this JVM loaded: a {@code -agentpath}
 * async-profiler, the Pyroscope agent's bundled copy, a second copy extracted by another
 * library. Two copies in one process take each other's signals and both lose samples
 * without a word, so the engine refuses to start a second one. Also Flight Recorder
 * recordings that sample too, which share the JDK's sampler.
 */
final class OtherProfilers {

	private OtherProfilers() {
	}

	/**
	 * async-profiler libraries mapped into this process, whoever loaded them (Linux;
	 * empty elsewhere).
	 */
	static Set<String> mappedLibraries() {
		return mappedLibraries(readMaps());
	}

	static Set<String> mappedLibraries(List<String> mapsLines) {
		Set<String> found = new LinkedHashSet<>();
		for (String line : mapsLines) {
			int pathStart = line.indexOf('/');
			if (pathStart < 0) {
				continue;
			}
			String path = line.substring(pathStart).trim();
			if (path.endsWith(" (deleted)")) {
				path = path.substring(0, path.length() - " (deleted)".length());
			}
			String file = path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
			if (file.contains("asyncprofiler")) {
				found.add(path);
			}
		}
		return found;
	}

	/** Profiling agents named on the JVM's command line. */
	static List<String> agentsOnCommandLine() {
		return fromJvmArguments(ManagementFactory.getRuntimeMXBean().getInputArguments());
	}

	static List<String> fromJvmArguments(Collection<String> arguments) {
		List<String> found = new ArrayList<>();
		for (String argument : arguments) {
			String lower = argument.toLowerCase(Locale.ROOT);
			if ((lower.startsWith("-agentpath:") && lower.contains("asyncprofiler"))
					|| (lower.startsWith("-javaagent:") && lower.contains("pyroscope"))) {
				found.add("JVM argument " + argument);
			}
		}
		return found;
	}

	private static List<String> readMaps() {
		Path maps = Path.of("/proc/self/maps");
		if (!Files.isReadable(maps)) {
			return List.of();
		}
		try {
			return Files.readAllLines(maps);
		}
		catch (IOException | RuntimeException ex) {
			return List.of();
		}
	}

	/**
	 * The names of Flight Recorder recordings, started by anyone, that run with execution
	 * samples on.
	 */
	static List<String> samplingJfrRecordings() {
		try {
			List<String> names = new ArrayList<>();
			for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
				if (recording.getState() == RecordingState.RUNNING && recording.getSettings()
					.getOrDefault(JfrStreamingEngine.EXECUTION_SAMPLE + "#enabled", "false")
					.equals("true")) {
					names.add(recording.getName());
				}
			}
			return names;
		}
		catch (RuntimeException ex) {
			return List.of();
		}
	}

}
