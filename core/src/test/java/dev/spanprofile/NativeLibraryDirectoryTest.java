package dev.spanprofile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Stream;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.spanprofile.EngineSelectionTest.assertSpanGetsSamples;
import static dev.spanprofile.EngineSelectionTest.profiler;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spanprofile.native-library-directory}: async-profiler extracts its library there
 * (through its own extraction, not a copy of it) and profiles. Its own class, so its own
 * JVM: the library must not be loaded yet.
 */
class NativeLibraryDirectoryTest {

	static {
		dev.spanprofile.tracking.ActivationTracking.install();
	}

	@TempDir
	Path temp;

	@Test
	void theLibraryIsExtractedIntoTheChosenDirectoryAndProfiles() throws Exception {
		Path directory = this.temp.resolve("native/lib");
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10),
				this.temp.resolve("work"), directory, null);
		try (SpanProfiler profiler = profiler(sampler, EngineChoice.ASYNC_PROFILER)) {
			assertThat(profiler.start()).as(String.valueOf(profiler.status().problem())).isTrue();
			assertThat(profiler.status().engine()).isEqualTo("async-profiler");
			assertSpanGetsSamples(profiler);
		}
		// Created for the library, which deletes its copy once loaded; the JVM-wide
		// setting is put back.
		assertThat(directory).isDirectory();
		try (Stream<Path> left = Files.list(directory)) {
			assertThat(left).isEmpty();
		}
		assertThat(System.getProperty("one.profiler.extractPath")).isNull();
	}

}
