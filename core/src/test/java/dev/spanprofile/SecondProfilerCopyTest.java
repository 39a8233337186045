package dev.spanprofile;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import one.profiler.AsyncProfiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A second copy of async-profiler's native library in the process, as the Pyroscope agent
 * or an {@code -agentpath} brings: spanprofile must notice it and not start a competing
 * copy.
 */
class SecondProfilerCopyTest {

	@TempDir
	Path temp;

	@Test
	void aCopyLoadedByAnotherComponentIsDetected() throws Exception {
		Path copy = this.temp.resolve("libasyncProfiler-other-agent.so");
		try (InputStream library = AsyncProfiler.class.getResourceAsStream("/linux-x64/libasyncProfiler.so")) {
			assertThat(library).as("bundled linux-x64 library").isNotNull();
			Files.copy(library, copy);
		}
		// What another agent does: load its own copy of the library.
		System.load(copy.toString());

		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler, StoreSettings.defaults(),
				Duration.ofMillis(200));
		try (SpanProfiler explicit = new SpanProfiler(settings,
				(frames) -> EngineChoice.ASYNC_PROFILER.create(sampler, frames))) {
			assertThat(explicit.start()).isFalse();
			assertThat(explicit.status().problem()).contains("another async-profiler is already loaded")
				.contains(copy.getFileName().toString());
		}
		try (SpanProfiler auto = new SpanProfiler(settings, (frames) -> EngineChoice.AUTO.create(sampler, frames))) {
			assertThat(auto.start()).isTrue();
			assertThat(auto.status().engine()).isEqualTo("jfr");
			assertThat(auto.status().note()).contains("another async-profiler is already loaded");
		}
	}

}
