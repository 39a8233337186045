package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kernel's run-queue figures are read only where a breakdown can show them: a
 * request's wait for a core is told from its time blocked by its CPU time, so where CPU
 * is not sampled (wall-clock or allocation samples only) nothing would show what the
 * reads cost.
 */
class CoreWaitReadsTest {

	private static final boolean LINUX = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");

	@TempDir
	Path temp;

	@Test
	void readWhereCpuIsSampled() {
		assertThat(readsRunQueuesWhenSampling(ProfilingEvent.CPU)).isEqualTo(LINUX);
		assertThat(readsRunQueuesWhenSampling(ProfilingEvent.CTIMER, ProfilingEvent.WALL)).isEqualTo(LINUX);
	}

	@Test
	void notReadWhereCpuIsNotSampled() {
		assertThat(readsRunQueuesWhenSampling(ProfilingEvent.WALL)).isFalse();
		assertThat(readsRunQueuesWhenSampling(ProfilingEvent.ALLOC)).isFalse();
	}

	private boolean readsRunQueuesWhenSampling(ProfilingEvent... events) {
		SamplerSettings sampler = new SamplerSettings(Set.of(events), Duration.ofMillis(10), this.temp, null, null);
		try (SpanProfiler profiler = new SpanProfiler(
				new SpanProfilerSettings(sampler, new StoreSettings(100, Long.MAX_VALUE, false), Duration.ofHours(1)),
				(frames) -> new ScriptedEngine())) {
			assertThat(profiler.isCoreWait()).as("on by default").isTrue();
			assertThat(profiler.start()).as("%s", profiler.status()).isTrue();
			boolean reads = ActivationRecorder.global().isReadingRunQueues();
			// Switched at run time, the same holds.
			profiler.setCoreWait(false);
			profiler.setCoreWait(true);
			assertThat(ActivationRecorder.global().isReadingRunQueues()).isEqualTo(reads);
			return reads;
		}
	}

}
