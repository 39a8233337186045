package dev.spanprofile.benchmarks.accuracy;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Per-span outcomes of the accuracy benchmark and the figures derived from them.
 *
 * @param event the sampling event really used
 * @param unknownSamples samples dropped because their thread's state was unknown
 */
public record AccuracyResult(AccuracyParameters parameters, String event, List<SpanOutcome> spans,
		long unknownSamples) {

	/**
	 * Samples in some span's hot method that landed in a span with a different hot
	 * method, over all such.
	 */
	public double misattributedRate() {
		long wrong = this.spans.stream().mapToLong(SpanOutcome::inOtherHotMethods).sum();
		long all = wrong + this.spans.stream().mapToLong(SpanOutcome::inOwnHotMethod).sum();
		return (all > 0) ? wrong / (double) all : Double.NaN;
	}

	public long misattributedSamples() {
		return this.spans.stream().mapToLong(SpanOutcome::inOtherHotMethods).sum();
	}

	public long totalSamples() {
		return this.spans.stream().mapToLong(SpanOutcome::samples).sum();
	}

	public double totalExpected() {
		return this.spans.stream().mapToDouble(SpanOutcome::expected).sum();
	}

	/** Smallest samples-to-expected ratio of any span. */
	public double minCountRatio() {
		return this.spans.stream().mapToDouble(SpanOutcome::countRatio).min().orElse(Double.NaN);
	}

	public double maxCountRatio() {
		return this.spans.stream().mapToDouble(SpanOutcome::countRatio).max().orElse(Double.NaN);
	}

	/**
	 * Spans whose sample count is within {@code tolerance} (0.15 for ±15 %) of the
	 * expected count.
	 */
	public long spansWithin(double tolerance) {
		return this.spans.stream().filter((span) -> Math.abs(span.countRatio() - 1) <= tolerance).count();
	}

	public Duration medianCompletionLatency() {
		return completionLatency(0.5);
	}

	public Duration maxCompletionLatency() {
		return completionLatency(1.0);
	}

	/**
	 * Spans the watcher never saw complete (their latency is unknown, counted as a
	 * failure).
	 */
	public long neverComplete() {
		return this.spans.stream().filter((span) -> span.completeAfter() == null).count();
	}

	/** Samples that arrived after a span had been reported complete, over all spans. */
	public long samplesAfterComplete() {
		return this.spans.stream().mapToLong(SpanOutcome::samplesAfterComplete).sum();
	}

	private Duration completionLatency(double quantile) {
		List<Duration> latencies = this.spans.stream()
			.map(SpanOutcome::completeAfter)
			.filter(Objects::nonNull)
			.sorted(Comparator.naturalOrder())
			.toList();
		if (latencies.isEmpty()) {
			return null;
		}
		return latencies.get((int) Math.min(latencies.size() - 1, Math.floor(quantile * latencies.size())));
	}

	/**
	 * @param hotMethod the one method this span burnt CPU in
	 * @param cpuNanos CPU time the span's thread used inside the span
	 * @param expected CPU time over the interval
	 * @param samples samples attributed to the span
	 * @param inOwnHotMethod of those, in its hot method
	 * @param inOtherHotMethods of those, in another span's hot method: misattributed
	 * @param completeAfter time from the span's end until it was reported complete
	 * ({@code null} if never)
	 * @param samplesAfterComplete samples that reached the span after it was reported
	 * complete
	 */
	public record SpanOutcome(String spanId, int hotMethod, long cpuNanos, double expected, long samples,
			long inOwnHotMethod, long inOtherHotMethods, Duration completeAfter, long samplesAfterComplete) {

		public double countRatio() {
			return (this.expected > 0) ? this.samples / this.expected : Double.NaN;
		}

	}

}
