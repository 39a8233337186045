package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

import dev.spanprofile.attribution.AttributionCounters.Result;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * After a restart, what a thread ran before the stop says nothing about what it runs now
 * (ends while stopped are not recorded): a sample the engine takes as soon as it starts,
 * before the profiler has marked thread states unknown, must not go to the span the
 * thread had before the stop.
 */
class RestartStaleStateTest {

	@TempDir
	Path temp;

	@Test
	void aSampleTakenAsTheEngineRestartsIsNotGivenToTheSpanFromBeforeTheStop() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler, new StoreSettings(100, Long.MAX_VALUE, false),
				Duration.ofHours(1));
		ScriptedEngine engine = new ScriptedEngine();
		ActivationRecorder recorder = ActivationRecorder.global();
		try (SpanProfiler profiler = new SpanProfiler(settings, (frames) -> engine)) {
			assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
			SpanContext before = SpanContext.create("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
					TraceFlags.getSampled(), TraceState.getDefault());
			profiler.store()
				.spanStarted(before.getTraceId(), before.getSpanId(), null, false, "before", "SERVER", 1, "test");
			recorder.spanActivated(before);
			profiler.collectNow();
			profiler.stop();

			// Sampling resumes inside the engine's start: its first sample of this thread
			// is stamped right then.
			long thread = Thread.currentThread().getId();
			int[] stack = { profiler.store().frames().intern("test.Restart.resumed", FrameKind.JAVA) };
			engine.onStart(() -> engine.deliver(SampleKind.CPU, thread, System.nanoTime(), stack));
			long unknownBefore = profiler.attributionCounters().samples(SampleKind.CPU, Result.UNKNOWN);
			assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
			try {
				profiler.collectNow();
				SpanRecord record = profiler.store().find(before.getSpanId());
				assertThat(record.ownSampleCount(SampleKind.CPU)).as("samples of the span from before the stop")
					.isZero();
				assertThat(profiler.attributionCounters().samples(SampleKind.CPU, Result.UNKNOWN) - unknownBefore)
					.as("samples of a thread whose state is unknown")
					.isEqualTo(1);
			}
			finally {
				recorder.spanActivated(null);
			}
		}
	}

}
