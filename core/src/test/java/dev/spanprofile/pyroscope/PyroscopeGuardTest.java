package dev.spanprofile.pyroscope;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import one.profiler.AsyncProfiler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Pyroscope agent brings its own copy of async-profiler: beside another copy already
 * loaded in the JVM, the export must refuse to start, say why, and leave the application
 * and the other profiler alone.
 */
class PyroscopeGuardTest {

	@Test
	void refusesToStartBesideAnotherAsyncProfiler() throws Exception {
		// Another component of this JVM loaded and uses upstream async-profiler.
		AsyncProfiler other = AsyncProfiler.getInstance();
		other.execute("start,event=itimer,interval=20ms");
		try {
			PyroscopeSettings pyroscope = new PyroscopeSettings("http://127.0.0.1:9", "checkout-service", null, null,
					null, null, Map.of(), Duration.ofSeconds(1), 1, 1, 1, Duration.ofSeconds(1), true, true, 100, true,
					1.0);
			SamplerSettings sampler = new SamplerSettings(ProfilingEvent.CPU, Duration.ofMillis(10),
					Path.of(System.getProperty("java.io.tmpdir")), null, null);
			SpanProfilerSettings settings = new SpanProfilerSettings(sampler, StoreSettings.defaults(),
					Duration.ofMillis(200));
			SpanLabels labels = new SpanLabels(true, pyroscope.maxSpanNames());
			try (SpanProfiler profiler = new SpanProfiler(settings,
					(frames) -> new PyroscopeEngine(pyroscope, labels, sampler, frames))) {
				assertThat(profiler.start()).isFalse();
				assertThat(profiler.status().problem()).contains("another async-profiler is already loaded");
			}
			assertThat(other.execute("status")).as("the other profiler keeps running").doesNotContain("not active");
		}
		finally {
			other.execute("stop");
		}
	}

}
