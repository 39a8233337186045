package dev.spanprofile.benchmarks.accuracy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the accuracy benchmark runnable: a tiny run must produce a figure for every span. The figures themselves
 * are reported by benchmarks/run.sh, not judged here (AttributionAccuracyTest in core judges attribution).
 */
class AccuracyBenchmarkSmokeTest {

	@Test
	void tinyRunReportsEverySpan() throws Exception {
		AccuracyParameters parameters = new AccuracyParameters(4, 2, Duration.ofMillis(30), Duration.ofMillis(10),
				Duration.ofMillis(200));
		AccuracyResult result = new AccuracyBenchmark(parameters).run();
		assertThat(result.spans()).hasSize(8);
		assertThat(result.event()).isNotBlank();
		assertThat(result.totalSamples()).isPositive();
		assertThat(result.totalExpected()).isPositive();
		assertThat(result.misattributedRate()).isBetween(0.0, 1.0);
		assertThat(result.minCountRatio()).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(result.maxCountRatio());
		assertThat(result.neverComplete()).isZero();
		assertThat(result.maxCompletionLatency()).isGreaterThanOrEqualTo(result.medianCompletionLatency());
		assertThat(result.spans()).allSatisfy((span) -> {
			assertThat(span.cpuNanos()).isPositive();
			assertThat(span.inOwnHotMethod() + span.inOtherHotMethods()).isLessThanOrEqualTo(span.samples());
		});
	}

}
