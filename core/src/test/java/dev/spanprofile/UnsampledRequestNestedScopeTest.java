package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.lifecycle.UnsampledProfilingRate;
import dev.spanprofile.lifecycle.UnsampledRequests;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.UnsampledRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thread enters a request tracing did not sample once per scope of its observation, and
 * Micrometer opens a nested scope of the observation already current on the thread
 * whenever a task carrying its context runs inline (a decorated task run by
 * {@code CallerRunsPolicy}, a context snapshot restored where it already holds). Closing
 * the inner scope must leave the thread working for the request until the outer one
 * closes.
 */
class UnsampledRequestNestedScopeTest {

	private static final String NAME = "http get /things/{id}";

	@TempDir
	Path temp;

	@Test
	void closingANestedScopeOfTheRequestKeepsTheThreadInTheRequest() {
		ScriptedEngine engine = new ScriptedEngine();
		try (SpanProfiler profiler = new SpanProfiler(settings(), (frames) -> engine)) {
			assertThat(profiler.start()).isTrue();
			int[] hot = { profiler.store().frames().intern("app.Things.get", FrameKind.JAVA) };
			long thread = Thread.currentThread().getId();
			UnsampledRequests requests = profiler.unsampledRequests();
			UnsampledRequest request = requests.started(UnsampledProfilingRate.UNLIMITED);
			requests.entered(request); // the server filter's scope
			requests.entered(request); // a nested scope of the same observation
			engine.deliver(SampleKind.CPU, thread, System.nanoTime(), hot);
			requests.left(request); // the nested scope closes
			for (int i = 0; i < 4; i++) {
				engine.deliver(SampleKind.CPU, thread, System.nanoTime(), hot);
			}
			requests.left(request); // the filter's scope closes
			engine.deliver(SampleKind.CPU, thread, System.nanoTime(), hot); // outside it
			requests.ended(request, NAME, false);
			profiler.collectNow();
			NameSummary summary = profiler.aggregates().summary(NAME, Duration.ofHours(1));
			assertThat(summary.cpuSamples()).as("CPU samples taken while the request's outer scope was open")
				.isEqualTo(5);
		}
	}

	private SpanProfilerSettings settings() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		return new SpanProfilerSettings(sampler, new StoreSettings(100, Long.MAX_VALUE, false), Duration.ofHours(1));
	}

}
