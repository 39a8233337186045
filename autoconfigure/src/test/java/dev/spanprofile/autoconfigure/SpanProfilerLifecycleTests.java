package dev.spanprofile.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lifecycle reports what the profiler does: a context whose profiler could not start
 * does not claim that it runs.
 */
class SpanProfilerLifecycleTests {

	@TempDir
	Path temp;

	@Test
	void isNotRunningAfterAFailedStart() {
		// Only one engine can own the JVM: while another runs, this one's start fails for
		// real.
		try (SpanProfiler other = profiler(); SpanProfiler profiler = profiler()) {
			assertThat(other.start()).as("%s", other.status()).isTrue();
			SpanProfilerLifecycle lifecycle = new SpanProfilerLifecycle(profiler);
			lifecycle.start();
			assertThat(profiler.status().running()).isFalse();
			assertThat(lifecycle.isRunning()).isFalse();

			other.stop();
			lifecycle.start();
			assertThat(lifecycle.isRunning()).isTrue();
			// Stopped through the endpoint: the context has nothing left to stop.
			profiler.stop();
			assertThat(lifecycle.isRunning()).isFalse();
		}
	}

	private SpanProfiler profiler() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		return new SpanProfiler(new SpanProfilerSettings(sampler, new StoreSettings(100, 16L * 1024 * 1024, false),
				Duration.ofMillis(200)), (frames) -> EngineChoice.JFR.create(sampler, frames));
	}

}
