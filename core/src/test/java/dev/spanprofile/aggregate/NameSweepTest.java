package dev.spanprofile.aggregate;

import java.time.Duration;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A name's aggregate is created empty and swept once empty: a sweep that comes between
 * the two (another thread's, at the turn of a bucket) must not leave a span recorded into
 * an aggregate nobody can reach.
 */
class NameSweepTest {

	private static final Duration HOUR = Duration.ofHours(1);

	@Test
	void aSpanEndingAsItsNewAggregateIsSweptIsStillCounted() {
		SyntheticSpans spans = new SyntheticSpans(AggregateSettings.defaults());
		long empty = spans.aggregates.approximateBytes();
		sweepOnceAfterResolving(spans);
		spans.aggregates.spanEnded("GET /new", "00000000000000a1", 5_000_000, false, spans.clock.get());
		NameSummary summary = spans.aggregates.summary("GET /new", HOUR);
		assertThat(summary).as("the name's statistics").isNotNull();
		assertThat(summary.count()).isEqualTo(1);
		spans.advance(Duration.ofHours(2));
		assertThat(spans.aggregates.summaries(HOUR)).isEmpty();
		assertThat(spans.aggregates.approximateBytes()).as("every byte counted is released with its bucket")
			.isEqualTo(empty);
	}

	@Test
	void aProfileFoldedAsItsNewAggregateIsSweptIsStillServed() {
		SyntheticSpans spans = new SyntheticSpans(AggregateSettings.defaults());
		long end = spans.clock.get();
		SpanRecord root = spans.store.spanStarted("t1", "00000000000000b1", null, false, "GET /folded", "SERVER",
				end - 5_000_000, "main");
		spans.store.addSample(root, SampleKind.CPU, spans.frames("a.Web.handle"), 3);
		spans.store.spanEnded("00000000000000b1", "GET /folded", "OK", end, false);
		sweepOnceAfterResolving(spans);
		spans.aggregates.fold(root);
		NameProfile profile = spans.aggregates.profile("GET /folded", HOUR, SampleKind.CPU, 0, Long.MAX_VALUE);
		assertThat(profile).as("the name's profile").isNotNull();
		assertThat(profile.spans()).isEqualTo(1);
		assertThat(profile.samples().totalSamples()).isEqualTo(3);
	}

	/**
	 * The first time a name is resolved, a bucket turns and a sweep runs before anything
	 * is recorded.
	 */
	private static void sweepOnceAfterResolving(SyntheticSpans spans) {
		boolean[] done = { false };
		spans.aggregates.afterResolve(() -> {
			if (!done[0]) {
				done[0] = true;
				spans.advance(Duration.ofMinutes(1));
				spans.aggregates.summaries(HOUR);
			}
		});
	}

}
