package dev.spanprofile.autoconfigure.brave;

import java.time.Duration;

import brave.Span;
import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler.Cause;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.sampling.AsyncProfilerEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Brave's span ends as the handler reports them to a name's statistics: only a finished
 * span has a duration to count.
 */
class BraveSpanHandlerTests {

	/** Never started: names' statistics count requests whether or not it samples. */
	private final SpanProfiler profiler = new SpanProfiler(SpanProfilerSettings.defaults(),
			(frames) -> new AsyncProfilerEngine(SpanProfilerSettings.defaults().sampler(), frames));

	private final BraveSpanHandler handler = new BraveSpanHandler(this.profiler.spanLifecycle(), (span) -> false);

	private final Tracing tracing = Tracing.newBuilder().addSpanHandler(this.handler).build();

	@AfterEach
	void close() {
		this.tracing.close();
		this.profiler.close();
	}

	@Test
	void aFinishedRequestCountsWithItsDuration() {
		request("GET /done", 250_000, Cause.FINISHED);
		NameSummary summary = this.profiler.aggregates().summary("GET /done", Duration.ofHours(1));
		assertThat(summary.count()).isOne();
		assertThat(summary.maxNanos()).isEqualTo(Duration.ofMillis(250).toNanos());
	}

	@ParameterizedTest
	@EnumSource(value = Cause.class, names = { "ORPHANED", "FLUSHED", "ABANDONED" })
	void aRequestReportedUnfinishedIsNotCounted(Cause cause) {
		request("GET /unfinished", 0, cause);
		request("GET /unfinished", 250_000, Cause.FINISHED);
		NameSummary summary = this.profiler.aggregates().summary("GET /unfinished", Duration.ofHours(1));
		assertThat(summary.count()).as("requests counted after one %s and one finished", cause).isOne();
		assertThat(summary.maxNanos()).isEqualTo(Duration.ofMillis(250).toNanos());
	}

	/**
	 * A request (a local root) started by Brave's tracer, then finished after
	 * {@code durationMicros}, or reported with {@code cause} without a finish timestamp,
	 * as Brave reports a span it never saw finish.
	 */
	private void request(String name, long durationMicros, Cause cause) {
		Span span = this.tracing.tracer().newTrace().name(name);
		long start = System.currentTimeMillis() * 1000;
		span.start(start);
		if (cause == Cause.FINISHED) {
			span.finish(start + durationMicros);
			return;
		}
		MutableSpan reported = new MutableSpan(span.context(), null);
		reported.name(name);
		reported.startTimestamp(start);
		this.handler.end(span.context(), reported, cause);
	}

}
