package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import one.profiler.AsyncProfiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.spanprofile.EngineSelectionTest.assertSpanGetsSamples;
import static dev.spanprofile.EngineSelectionTest.profiler;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Someone else in this JVM (an agent, a library, an operator with jcmd) already profiles
 * with the same async-profiler API: spanprofile must not take the session over. Its own
 * class, so its own JVM: it loads the library, which the load-failure tests in
 * {@link EngineSelectionTest} must not find loaded.
 */
class AsyncProfilerSessionTest {

	static {
		dev.spanprofile.tracking.ActivationTracking.install();
	}

	@TempDir
	Path temp;

	@Test
	void anotherAsyncProfilerSessionIsDetectedAndNotTakenOver() throws Exception {
		AsyncProfiler other = AsyncProfiler.getInstance();
		other.execute("start,event=itimer,interval=20ms");
		try {
			SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
					null, null);
			try (SpanProfiler explicit = profiler(sampler, EngineChoice.ASYNC_PROFILER)) {
				assertThat(explicit.start()).isFalse();
				assertThat(explicit.status().problem()).contains("already profiling on behalf of another component");
			}
			try (SpanProfiler auto = profiler(sampler, EngineChoice.AUTO)) {
				assertThat(auto.start()).isTrue();
				assertThat(auto.status().engine()).isEqualTo("jfr");
				assertThat(auto.status().note()).contains("already profiling");
				assertSpanGetsSamples(auto);
			}
			// The other session was left alone.
			assertThat(other.execute("status")).doesNotContain("not active");
		}
		finally {
			other.execute("stop");
		}
	}

}
