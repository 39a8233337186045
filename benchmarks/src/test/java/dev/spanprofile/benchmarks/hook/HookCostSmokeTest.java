package dev.spanprofile.benchmarks.hook;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the JMH benchmarks runnable: one fork and one short iteration each must report a
 * time and an allocation figure for every variant. How fast they are is
 * benchmarks/run.sh's business, not a test's.
 */
class HookCostSmokeTest {

	@Test
	void everyVariantReportsTimeAndAllocation() throws Exception {
		HookCostResult result = HookCost.run(1, 1, Duration.ofMillis(200), false);
		for (HookCost.Measurement measurement : List.of(result.clockRead(), result.bare(), result.stopped(),
				result.recording(), result.singleScopeStopped(), result.singleScopeRecording())) {
			assertThat(measurement.nanos()).isPositive().isFinite();
			assertThat(measurement.bytes()).isGreaterThanOrEqualTo(0).isFinite();
		}
		assertThat(result.addedClockReads()).isFinite();
	}

}
