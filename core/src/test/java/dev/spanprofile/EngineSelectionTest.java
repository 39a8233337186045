package dev.spanprofile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What happens when async-profiler cannot run: auto falls back to Flight Recorder and
 * says why, an explicit choice reports the problem, and in no case does the caller get an
 * exception.
 * <p>
 * Every test here needs a JVM where async-profiler's library has not loaded (once loaded,
 * its API keeps handing out that instance). Surefire forks a fresh JVM per test class,
 * and no test in this class loads it; tests that do live in their own classes
 * ({@link AsyncProfilerSessionTest}, {@link NativeLibraryDirectoryTest}).
 */
class EngineSelectionTest {

	static {
		dev.spanprofile.tracking.ActivationTracking.install();
	}

	@TempDir
	Path temp;

	@Test
	void autoFallsBackToFlightRecorderWhenTheNativeLibraryCannotLoad() throws Exception {
		Path notALibrary = Files.writeString(this.temp.resolve("libasyncProfiler.so"), "not an ELF file");
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, notALibrary);
		try (SpanProfiler profiler = profiler(sampler, EngineChoice.AUTO)) {
			assertThat(profiler.start()).isTrue();
			EngineStatus status = profiler.status();
			assertThat(status.engine()).isEqualTo("jfr");
			assertThat(status.running()).isTrue();
			assertThat(status.note()).contains("async-profiler unavailable").contains("cannot be loaded");
			assertSpanGetsSamples(profiler);
		}
	}

	@Test
	void aLibraryDirectoryThatCannotBeWrittenIsReportedClearly() throws Exception {
		// A regular file where a directory is expected: what a read-only or mistyped
		// mount looks like.
		Path notADirectory = Files.writeString(this.temp.resolve("not-a-directory"), "");
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				notADirectory.resolve("lib"), null);
		try (SpanProfiler explicit = profiler(sampler, EngineChoice.ASYNC_PROFILER)) {
			assertThat(explicit.start()).isFalse();
			assertThat(explicit.status().problem())
				.startsWith("Cannot extract async-profiler's native library into " + notADirectory.resolve("lib"));
		}
		try (SpanProfiler auto = profiler(sampler, EngineChoice.AUTO)) {
			assertThat(auto.start()).isTrue();
			assertThat(auto.status().engine()).isEqualTo("jfr");
		}
	}

	@Test
	void explicitAsyncProfilerReportsWhyItIsNotRunning() throws Exception {
		Path notALibrary = Files.writeString(this.temp.resolve("libasyncProfiler.so"), "not an ELF file");
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, notALibrary);
		try (SpanProfiler profiler = profiler(sampler, EngineChoice.ASYNC_PROFILER)) {
			assertThat(profiler.start()).isFalse();
			assertThat(profiler.status().running()).isFalse();
			assertThat(profiler.status().problem()).contains("cannot be loaded");
		}
	}

	static SpanProfiler profiler(SamplerSettings sampler, EngineChoice engine) {
		return new SpanProfiler(new SpanProfilerSettings(sampler, StoreSettings.defaults(), Duration.ofMillis(200)),
				(frames) -> engine.create(sampler, frames));
	}

	static void assertSpanGetsSamples(SpanProfiler profiler) throws InterruptedException {
		try (SdkTracerProvider provider = SdkTracerProvider.builder()
			.addSpanProcessor(profiler.spanProcessor((span) -> false))
			.build()) {
			Tracer tracer = provider.get("fallback-test");
			Span span = tracer.spanBuilder("after-fallback").startSpan();
			try (Scope scope = span.makeCurrent()) {
				Workloads.burnAlpha(500);
			}
			finally {
				span.end();
			}
			long sinceEnd = System.nanoTime();
			long deadline = sinceEnd + Duration.ofSeconds(10).toNanos();
			SpanRecord record = profiler.store().find(span.getSpanContext().getSpanId());
			while (profiler.completeUpToEpochNanos() < dev.spanprofile.tracking.MonotonicEpoch.toEpochNanos(sinceEnd)
					&& System.nanoTime() < deadline) {
				Thread.sleep(100);
				profiler.collectNow();
			}
			assertThat(record.ownSampleCount(SampleKind.CPU)).as("samples after fallback").isGreaterThan(10);
		}
	}

}
