package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.ProfilerState.Phase;
import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One state decides whether spans are stored: only while the profiler runs, so that no
 * span sits in the store without samples (before the first start, after a failed one,
 * after a stop).
 */
class ProfilerStateTest {

	@TempDir
	Path temp;

	@Test
	void spansAreStoredOnlyWhileRunning() {
		SpanProfiler profiler = jfrProfiler();
		try (SdkTracerProvider tracing = tracing(profiler)) {
			assertThat(profiler.state().phase()).isEqualTo(Phase.NEW);
			assertThat(profiler.status().running()).isFalse();
			assertThat(stored(profiler, tracing, "before-first-start")).isFalse();

			assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
			assertThat(profiler.state().phase()).isEqualTo(Phase.RUNNING);
			assertThat(profiler.status().running()).isTrue();
			assertThat(stored(profiler, tracing, "while-running")).isTrue();

			profiler.stop();
			assertThat(profiler.state()).isEqualTo(new ProfilerState(Phase.STOPPED, "stopped"));
			assertThat(stored(profiler, tracing, "after-stop")).isFalse();
		}
		finally {
			profiler.close();
		}
	}

	@Test
	void aFailedStartStoresNoSpansAndSaysWhy() {
		// A second engine in one JVM is refused (the hook and the native profiler are
		// process-wide): a real way for a start to fail, whatever engine this JVM can
		// run.
		try (SpanProfiler first = jfrProfiler(); SpanProfiler second = jfrProfiler()) {
			assertThat(first.start()).as("%s", first.status()).isTrue();
			try (SdkTracerProvider tracing = tracing(second)) {
				assertThat(second.start()).isFalse();
				assertThat(second.state().phase()).isEqualTo(Phase.FAILED);
				assertThat(second.status().running()).isFalse();
				assertThat(second.status().problem()).contains("another spanprofile engine already runs");
				assertThat(stored(second, tracing, "after-failed-start")).isFalse();

				first.stop();
				assertThat(second.start()).as("a retry once the JVM is free").isTrue();
				assertThat(stored(second, tracing, "after-retry")).isTrue();
			}
		}
	}

	private SpanProfiler jfrProfiler() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler,
				new StoreSettings(100, 16L * 1024 * 1024, false), Duration.ofMillis(200));
		return new SpanProfiler(settings, (frames) -> EngineChoice.JFR.create(sampler, frames));
	}

	private static SdkTracerProvider tracing(SpanProfiler profiler) {
		return SdkTracerProvider.builder().addSpanProcessor(profiler.spanProcessor((span) -> false)).build();
	}

	private static boolean stored(SpanProfiler profiler, SdkTracerProvider tracing, String name) {
		Span span = tracing.get("state-test").spanBuilder(name).startSpan();
		span.end();
		return profiler.store().find(span.getSpanContext().getSpanId()) != null;
	}

}
