package dev.spanprofile;

import dev.spanprofile.startup.StartupSettings;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * An engine that is not running records no start: its steps would mark the threads whose
 * samples another engine (the one owning the JVM: a cached test context's) takes.
 */
class RecordStartupTest {

	@Test
	void anEngineRefusedBecauseAnotherOwnsTheJvmRecordsNoStart() {
		try (SpanProfiler owner = new SpanProfiler(SpanProfilerSettings.defaults(), (frames) -> new ScriptedEngine());
				SpanProfiler refused = new SpanProfiler(SpanProfilerSettings.defaults(),
						(frames) -> new ScriptedEngine())) {
			assertThat(owner.start()).isTrue();
			assertThat(refused.start()).as("another engine owns the JVM").isFalse();
			assertThatIllegalStateException().isThrownBy(
					() -> refused.recordStartup(StartupSettings.defaults(), "start", MonotonicEpoch.nowEpochNanos()))
				.withMessageContaining("not running");
			assertThat(refused.startup()).isNull();
			assertThat(owner.startup()).isNull();
		}
	}

	@Test
	void aStoppedEngineRecordsNoStart() {
		try (SpanProfiler profiler = new SpanProfiler(SpanProfilerSettings.defaults(),
				(frames) -> new ScriptedEngine())) {
			assertThat(profiler.start()).isTrue();
			profiler.stop();
			assertThatIllegalStateException().isThrownBy(
					() -> profiler.recordStartup(StartupSettings.defaults(), "start", MonotonicEpoch.nowEpochNanos()));
			assertThat(profiler.startup()).isNull();
		}
	}

}
