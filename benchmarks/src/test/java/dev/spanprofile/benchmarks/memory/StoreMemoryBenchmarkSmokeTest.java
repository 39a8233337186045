package dev.spanprofile.benchmarks.memory;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the memory benchmark runnable: a short run must measure a store that really holds
 * spans.
 */
class StoreMemoryBenchmarkSmokeTest {

	@Test
	void shortRunMeasuresTheStore() throws Exception {
		// About a megabyte of spans: far above what the JVM's own activity moves between
		// two full GCs.
		MemoryParameters parameters = new MemoryParameters(2_000, Duration.ofSeconds(2), 2, 100_000, 4L << 20);
		MemoryResult result = new StoreMemoryBenchmark(parameters).run();
		assertThat(result.spansCreated()).isPositive();
		assertThat(result.spansPerSecond()).isPositive();
		assertThat(result.storedSpans()).isPositive();
		assertThat(result.maxEstimate()).isPositive();
		assertThat(result.retainedBytes()).isPositive();
		assertThat(result.retainedBytesPerSpan()).isPositive();
		assertThat(result.estimatedBytesPerSpan()).isPositive();
		assertThat(result.checkpoints()).isNotEmpty();
	}

}
