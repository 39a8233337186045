package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An engine whose delivery promise stops moving (a Flight Recorder stream that died, say)
 * while threads keep changing spans: the collector keeps the change points of a bounded
 * stretch of time, not all of them.
 */
class FrozenDeliveryPromiseTest {

	private static final Duration DUMP_INTERVAL = Duration.ofMillis(10);

	private static final long RUN_NANOS = Duration.ofSeconds(3).toNanos();

	@TempDir
	Path temp;

	@Test
	void changePointsAreForgottenByElapsedTimeWhenThePromiseFreezes() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler, new StoreSettings(100, Long.MAX_VALUE, false),
				DUMP_INTERVAL);
		ScriptedEngine engine = new ScriptedEngine();
		long frozenAt = System.nanoTime();
		engine.deliveredUpTo(() -> frozenAt);
		ActivationRecorder recorder = ActivationRecorder.global();
		SpanContext span = SpanContext.create("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
				TraceFlags.getSampled(), TraceState.getDefault());
		try (SpanProfiler profiler = new SpanProfiler(settings, (frames) -> engine)) {
			assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
			long switches = 0;
			long started = System.nanoTime();
			try {
				while (System.nanoTime() - started < RUN_NANOS) {
					recorder.spanActivated(((switches & 1) == 0) ? span : null);
					switches++;
					LockSupport.parkNanos(100_000);
				}
			}
			finally {
				recorder.spanActivated(null);
			}
			profiler.collectNow();
			int retained = profiler.collectionCycles().retainedChangePoints();
			// About the last 60 dump intervals (0.6 s) of 3 s, plus a margin of two and a
			// drain period.
			double share = retained / (double) switches;
			System.out.printf("frozen promise: %d switches, %d change points retained (%.0f%%)%n", switches, retained,
					100 * share);
			assertThat(switches).as("span switches made").isGreaterThan(3_000);
			assertThat(share).as("share of the change points retained").isBetween(0.08, 0.40);
		}
	}

}
