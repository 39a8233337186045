package dev.spanprofile.aggregate;

import java.time.Duration;
import java.util.List;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The aggregate's bookkeeping with spans of known durations and samples at a controlled
 * clock: windows, bands, limits. Real profiled workloads are in
 * {@code NameAggregationTest}.
 */
class NameAggregatesTest {

	private static final long MAX = Long.MAX_VALUE;

	private static AggregateSettings settings(int maxNames, int maxStacks, long maxBytes) {
		return new AggregateSettings(Duration.ofHours(1), Duration.ofMinutes(1), maxNames, maxStacks, maxBytes);
	}

	@Test
	void countsAndPercentilesComeFromEverySpanOfTheName() {
		SyntheticSpans spans = new SyntheticSpans(AggregateSettings.defaults());
		for (int i = 1; i <= 100; i++) {
			spans.root("GET /owners", Duration.ofMillis(i), i % 10 == 0, 1, "a.Web.handle");
		}
		NameSummary summary = spans.aggregates.summary("GET /owners", Duration.ofMinutes(15));
		assertThat(summary.count()).isEqualTo(100);
		assertThat(summary.errors()).isEqualTo(10);
		// Two significant digits: within 1 % of the exact order statistic.
		assertThat(summary.p50Nanos()).isBetween(49_500_000L, 50_500_000L);
		assertThat(summary.p90Nanos()).isBetween(89_100_000L, 90_900_000L);
		assertThat(summary.p99Nanos()).isBetween(98_000_000L, 100_000_000L);
		assertThat(summary.maxNanos()).isEqualTo(100_000_000L);
		assertThat(summary.cpuSamples()).isEqualTo(100);
		assertThat(summary.slowest()).hasSize(5).first().isNotNull();
		assertThat(spans.aggregates.summary("GET /pets", Duration.ofMinutes(15))).isNull();
	}

	@Test
	void slowestAreTheLongestSpansSlowestFirst() {
		SyntheticSpans spans = new SyntheticSpans(AggregateSettings.defaults());
		String slowest = null;
		String second = null;
		for (int i = 1; i <= 50; i++) {
			String id = spans.root("GET /owners", Duration.ofMillis((i * 37) % 50 + 1), false, 0).spanId();
			if ((i * 37) % 50 + 1 == 50) {
				slowest = id;
			}
			if ((i * 37) % 50 + 1 == 49) {
				second = id;
			}
			spans.advance(Duration.ofSeconds(10));
		}
		List<String> ids = spans.aggregates.summary("GET /owners", Duration.ofHours(1)).slowest();
		assertThat(ids).hasSize(5).startsWith(slowest, second);
	}

	@Test
	void spansOfNamesBeyondTheLimitCountAsOther() {
		SyntheticSpans spans = new SyntheticSpans(settings(3, 2000, Long.MAX_VALUE));
		for (int name = 0; name < 5; name++) {
			for (int i = 0; i < 4; i++) {
				spans.root("name-" + name, Duration.ofMillis(5), false, 2, "a.Web.handle" + name);
			}
		}
		List<NameSummary> summaries = spans.aggregates.summaries(Duration.ofHours(1));
		assertThat(summaries).extracting(NameSummary::name)
			.containsExactlyInAnyOrder("name-0", "name-1", "name-2", AggregateSettings.OTHER);
		NameSummary other = spans.aggregates.summary(AggregateSettings.OTHER, Duration.ofHours(1));
		assertThat(other.count()).isEqualTo(8);
		assertThat(other.cpuSamples()).isEqualTo(16);
		StackTree otherProfile = spans.aggregates
			.profile(AggregateSettings.OTHER, Duration.ofHours(1), SampleKind.CPU, 0, MAX)
			.samples();
		assertThat(spans.samplesThrough(otherProfile, "a.Web.handle3")).isEqualTo(8);
		assertThat(spans.samplesThrough(otherProfile, "a.Web.handle4")).isEqualTo(8);
	}

	@Test
	void bucketsLeaveTheWindowAndTheirNamesGoWithThem() {
		SyntheticSpans spans = new SyntheticSpans(settings(10, 2000, Long.MAX_VALUE));
		spans.root("old", Duration.ofMillis(5), false, 3, "a.Old.work");
		long bytesWithOld = spans.aggregates.approximateBytes();
		spans.advance(Duration.ofMinutes(30));
		spans.root("recent", Duration.ofMillis(5), false, 3, "a.Recent.work");
		assertThat(spans.aggregates.summary("old", Duration.ofHours(1)).count()).isEqualTo(1);
		assertThat(spans.aggregates.summary("old", Duration.ofMinutes(15)).count()).isZero();
		assertThat(spans.aggregates.summaries(Duration.ofMinutes(15))).extracting(NameSummary::name)
			.containsExactly("recent");
		spans.advance(Duration.ofMinutes(31));
		assertThat(spans.aggregates.summaries(Duration.ofHours(1))).extracting(NameSummary::name)
			.containsExactly("recent");
		assertThat(spans.aggregates.summary("old", Duration.ofHours(1))).as("expired name forgotten").isNull();
		spans.advance(Duration.ofMinutes(31));
		assertThat(spans.aggregates.summaries(Duration.ofHours(1))).isEmpty();
		assertThat(spans.aggregates.approximateBytes()).isLessThan(bytesWithOld);
		assertThat(spans.aggregates.approximateBytes()).as("back to an empty aggregate's")
			.isEqualTo(new SyntheticSpans(settings(10, 2000, Long.MAX_VALUE)).aggregates.approximateBytes());
	}

	@Test
	void aDurationRangeSelectsTheSpansOfItsBandsOnly() {
		SyntheticSpans spans = new SyntheticSpans(AggregateSettings.defaults());
		for (int i = 0; i < 30; i++) {
			spans.root("GET /owners", Duration.ofMillis(10 + i % 3), false, 2, "a.Web.handle", "a.Fast.path");
		}
		for (int i = 0; i < 7; i++) {
			spans.root("GET /owners", Duration.ofMillis(300 + i), false, 5, "a.Web.handle", "a.Slow.path");
		}
		NameProfile fast = spans.aggregates.profile("GET /owners", Duration.ofHours(1), SampleKind.CPU, 0,
				Duration.ofMillis(50).toNanos());
		assertThat(fast.spans()).isEqualTo(30);
		assertThat(spans.samplesThrough(fast.samples(), "a.Fast.path")).isEqualTo(60);
		assertThat(spans.samplesThrough(fast.samples(), "a.Slow.path")).isZero();
		NameProfile slow = spans.aggregates.profile("GET /owners", Duration.ofHours(1), SampleKind.CPU,
				Duration.ofMillis(250).toNanos(), MAX);
		assertThat(slow.spans()).isEqualTo(7);
		assertThat(slow.samples().totalSamples()).isEqualTo(35);
		assertThat(spans.samplesThrough(slow.samples(), "a.Fast.path")).isZero();
		// The range is widened to band edges, never narrowed.
		assertThat(slow.minNanos()).isLessThanOrEqualTo(Duration.ofMillis(250).toNanos())
			.isGreaterThan(Duration.ofMillis(250).toNanos() * 3 / 4);
		assertThat(fast.maxNanos()).isGreaterThan(Duration.ofMillis(50).toNanos())
			.isLessThan(Duration.ofMillis(50).toNanos() * 4 / 3);
	}

	@Test
	void theDiffPutsASlowOnlyFrameOnTheSlowSideOnly() {
		SyntheticSpans spans = new SyntheticSpans(AggregateSettings.defaults());
		for (int i = 0; i < 90; i++) {
			spans.root("GET /owners", Duration.ofMillis(20), false, 2, "a.Web.handle", "a.Common.render");
		}
		for (int i = 0; i < 10; i++) {
			spans.root("GET /owners", Duration.ofMillis(400), false, 2, "a.Web.handle", "a.Common.render");
			spans.store.addSample(spans.store.find(String.format("%016x", 90 + i + 1)), SampleKind.CPU,
					spans.frames("a.Web.handle", "a.Slow.lock"), 0);
		}
		// Default threshold: above the band of the name's p90 (20 ms here, 90 of 100
		// spans).
		ProfileDiff diff = spans.aggregates.comparisons()
			.slowAgainstTypical("GET /owners", Duration.ofHours(1), SampleKind.CPU, null);
		assertThat(diff.slowSpans()).isEqualTo(10);
		assertThat(diff.typicalSpans()).isEqualTo(90);
		assertThat(diff.thresholdNanos()).isBetween(Duration.ofMillis(20).toNanos(), Duration.ofMillis(400).toNanos());
		assertThat(diff.tree().totalSamples(0)).isEqualTo(20);
		assertThat(diff.tree().totalSamples(1)).isEqualTo(180);
	}

	@Test
	void withAllSpansInOneBandTheDefaultSlowSideIsThatBand() {
		SyntheticSpans spans = new SyntheticSpans(AggregateSettings.defaults());
		for (int i = 0; i < 10; i++) {
			spans.root("GET /owners", Duration.ofMillis(20), false, 2, "a.Web.handle");
		}
		ProfileDiff diff = spans.aggregates.comparisons()
			.slowAgainstTypical("GET /owners", Duration.ofHours(1), SampleKind.CPU, null);
		assertThat(diff.slowSpans()).isEqualTo(10);
		assertThat(diff.typicalSpans()).isZero();
		assertThat(diff.thresholdNanos()).isEqualTo(LatencyBands.lowerEdgeNanos(LatencyBands.of(20_000_000)));
	}

	@Test
	void anExplicitThresholdSplitsAtItsNearestBandEdge() {
		SyntheticSpans spans = new SyntheticSpans(AggregateSettings.defaults());
		for (int i = 0; i < 20; i++) {
			spans.root("GET /owners", Duration.ofMillis(20), false, 3, "a.Web.handle", "a.Common.render");
			spans.root("GET /owners", Duration.ofMillis(400), false, 4, "a.Web.handle", "a.Slow.lock");
		}
		ProfileDiff diff = spans.aggregates.comparisons()
			.slowAgainstTypical("GET /owners", Duration.ofHours(1), SampleKind.CPU, Duration.ofMillis(100).toNanos());
		assertThat(diff.slowSpans()).isEqualTo(20);
		assertThat(diff.typicalSpans()).isEqualTo(20);
		long[] lock = sides(spans, diff, "a.Slow.lock");
		long[] render = sides(spans, diff, "a.Common.render");
		assertThat(lock).containsExactly(80, 0);
		assertThat(render).containsExactly(0, 60);
		assertThat(diff.thresholdNanos()).isBetween(Duration.ofMillis(100).toNanos() * 8 / 9,
				Duration.ofMillis(100).toNanos() * 9 / 8);
	}

	private static long[] sides(SyntheticSpans spans, ProfileDiff diff, String frame) {
		long[] sides = new long[2];
		diff.tree().visit((StackTree.NodeVisitor) (path, depth, node) -> {
			if (spans.store.frames().name(path[depth - 1]).equals(frame)) {
				sides[0] += node.total(0);
				sides[1] += node.total(1);
			}
		});
		return sides;
	}

	@Test
	void trimmingKeepsABucketWithinItsStackBudgetAndItsTotals() {
		int maxStacks = 100;
		SyntheticSpans spans = new SyntheticSpans(settings(10, maxStacks, Long.MAX_VALUE));
		long total = 0;
		for (int i = 0; i < 400; i++) {
			// One heavy path and many thin ones, each with its own frames.
			spans.root("GET /owners", Duration.ofMillis(20), false, 5, "a.Web.handle", "a.Hot.path", "a.Hot.leaf");
			spans.root("GET /owners", Duration.ofMillis(20), false, 1, "a.Web.handle", "a.Thin.m" + i, "a.Thin.n" + i);
			total += 6;
		}
		NameProfile profile = spans.aggregates.profile("GET /owners", Duration.ofHours(1), SampleKind.CPU, 0, MAX);
		long[] stacks = { 0 };
		profile.samples().visit((path, depth, through, self) -> stacks[0] += (self > 0) ? 1 : 0);
		assertThat(stacks[0]).isLessThanOrEqualTo(maxStacks);
		assertThat(profile.samples().totalSamples()).isEqualTo(total);
		assertThat(spans.samplesThrough(profile.samples(), "a.Web.handle")).isEqualTo(total);
		assertThat(spans.samplesThrough(profile.samples(), "a.Hot.leaf")).isEqualTo(2000);
		assertThat(spans.samplesThrough(profile.samples(), NameAggregates.TRIMMED_FRAME)).isPositive()
			.isLessThanOrEqualTo(400);
	}

	@Test
	void overTheMemoryBudgetTheOldestProfilesGoAndStatisticsStay() {
		long unbounded = thirtyMinutesOfDistinctStacks(
				new SyntheticSpans(settings(10, 2000, Long.MAX_VALUE))).aggregates
			.approximateBytes();
		// Each minute holds 20 one-sample stacks of its own: a budget one byte short
		// drops the oldest minute's.
		long budget = unbounded - 1;
		SyntheticSpans spans = thirtyMinutesOfDistinctStacks(new SyntheticSpans(settings(10, 2000, budget)));
		assertThat(spans.aggregates.approximateBytes()).isLessThanOrEqualTo(budget);
		NameSummary summary = spans.aggregates.summary("GET /owners", Duration.ofHours(1));
		assertThat(summary.count()).isEqualTo(600);
		StackTree profile = spans.aggregates.profile("GET /owners", Duration.ofHours(1), SampleKind.CPU, 0, MAX)
			.samples();
		assertThat(spans.samplesThrough(profile, "a.M29x0")).as("newest kept").isEqualTo(1);
		assertThat(spans.samplesThrough(profile, "a.M0x0")).as("oldest dropped").isZero();
		assertThat(spans.samplesThrough(profile, "a.M2x0")).as("only the oldest dropped").isEqualTo(1);
		assertThat(summary.cpuSamples()).as("samples still counted").isEqualTo(600);
	}

	private static SyntheticSpans thirtyMinutesOfDistinctStacks(SyntheticSpans spans) {
		for (int minute = 0; minute < 30; minute++) {
			for (int i = 0; i < 20; i++) {
				spans.root("GET /owners", Duration.ofMillis(20), false, 1, "a.Web.handle", "a.M" + minute + "x" + i);
			}
			spans.advance(Duration.ofMinutes(1));
		}
		return spans;
	}

}
