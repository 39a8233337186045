package dev.spanprofile.sampling;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How to sample.
 *
 * @param event what triggers a sample
 * @param interval time between samples of one thread (CPU time for cpu/itimer/ctimer)
 * @param workDirectory where the engine keeps its rolling recording file
 * @param nativeLibraryDirectory where to extract the native profiler library, or {@code null} for the temp directory
 * @param nativeLibraryPath an already extracted native library to load instead, or {@code null}
 */
public record SamplerSettings(ProfilingEvent event, Duration interval, Path workDirectory, Path nativeLibraryDirectory,
		Path nativeLibraryPath) {

	public SamplerSettings {
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval must be positive, was " + interval);
		}
	}

	public static SamplerSettings defaults() {
		return new SamplerSettings(ProfilingEvent.CPU, Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null);
	}

}
