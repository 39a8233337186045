package dev.spanprofile.benchmarks.accuracy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * Keeps the accuracy benchmark runnable and its figures meaningful: a small run must
 * measure every span, count samples where the spans burnt their CPU, and see each span
 * complete. The published figures come from benchmarks/run.sh; AttributionAccuracyTest in
 * core judges attribution strictly.
 */
class AccuracyBenchmarkSmokeTest {

	@Test
	void smallRunMeasuresEverySpan() throws Exception {
		// 8 spans of 100 to 400 ms of CPU at 10 ms: 10 to 40 samples expected each, ~200
		// in all.
		AccuracyParameters parameters = new AccuracyParameters(4, 2, Duration.ofMillis(100), Duration.ofMillis(10),
				Duration.ofMillis(200));
		AccuracyResult result = new AccuracyBenchmark(parameters).run();
		assertThat(result.spans()).hasSize(8);
		assertThat(result.event()).isNotBlank();
		assertThat(result.neverComplete()).isZero();

		// The expected counts come from the CPU each span really used.
		assertThat(result.spans()).allSatisfy((span) -> {
			assertThat(span.cpuNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
			assertThat(span.expected()).isCloseTo(span.cpuNanos() / 10_000_000.0, offset(0.01));
		});
		// Poisson: the total within 5 standard deviations of what the CPU time predicts;
		// every span gets samples (P(none) with 10 expected is 5e-5).
		double expected = result.totalExpected();
		assertThat((double) result.totalSamples()).isBetween(expected - 5 * Math.sqrt(expected),
				expected + 5 * Math.sqrt(expected));
		assertThat(result.minCountRatio()).isGreaterThan(0);
		// Spans burn their CPU in their hot method: most of their samples are found
		// there, which is what the misattribution figure is computed from.
		long inHotMethods = result.spans()
			.stream()
			.mapToLong((span) -> span.inOwnHotMethod() + span.inOtherHotMethods())
			.sum();
		assertThat(inHotMethods).isGreaterThan(result.totalSamples() / 2);
		assertThat(result.misattributedRate()).isLessThan(0.05);
		// Completion is reported within a few dump intervals of a span's end, not
		// whenever.
		assertThat(result.maxCompletionLatency()).isLessThan(Duration.ofSeconds(5));
	}

}
