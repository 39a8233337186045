package dev.spanprofile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import dev.spanprofile.aggregate.LatencyBands;
import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.aggregate.NameProfile;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.aggregate.ProfileDiff;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Span-name aggregates fed by the real engine: local roots run real CPU work under
 * async-profiler, and the name's counts, band-restricted profiles and slow-versus-typical
 * diff are checked against what the spans did.
 */
class NameAggregationTest {

	private static final Duration HOUR = Duration.ofHours(1);

	private static final String NAME = "GET /owners/{ownerId}";

	@Test
	void everyRootIsCountedAndFoldedOnceEvenWhenTheStoreDropsItFirst() {
		// Three spans kept: most roots are dropped before a collection cycle completes
		// their profile.
		try (ProfilingHarness harness = new ProfilingHarness(true, 3)) {
			for (int i = 0; i < 30; i++) {
				root(harness, "checkout", () -> Workloads.burnAlpha(5));
				root(harness, "browse", () -> Workloads.burnGamma(2));
			}
			harness.collect();
			NameAggregates aggregates = harness.profiler.aggregates();
			assertThat(aggregates.summary("checkout", HOUR).count()).isEqualTo(30);
			assertThat(aggregates.summary("browse", HOUR).count()).isEqualTo(30);
			assertThat(aggregates.profile("checkout", HOUR, SampleKind.CPU, 0, Long.MAX_VALUE).spans())
				.as("each root folded exactly once")
				.isEqualTo(30);
			assertThat(aggregates.profile("browse", HOUR, SampleKind.CPU, 0, Long.MAX_VALUE).spans()).isEqualTo(30);
		}
	}

	@Test
	void foldedSamplesAreTheStoredProfilesOfTheName() {
		try (ProfilingHarness harness = new ProfilingHarness(true, 1000)) {
			List<String> ids = new ArrayList<>();
			for (int i = 0; i < 20; i++) {
				ids.add(root(harness, "checkout", () -> Workloads.burnAlpha(30)));
			}
			harness.collect();
			long stored = 0;
			for (String id : ids) {
				stored += InclusiveSamples.count(harness.record(id), SampleKind.CPU);
			}
			NameSummary summary = harness.profiler.aggregates().summary("checkout", HOUR);
			assertThat(summary.cpuSamples()).isEqualTo(stored);
			double expected = 20 * 30 / (double) ProfilingHarness.INTERVAL.toMillis();
			assertThat((double) summary.cpuSamples()).isBetween(expected * 0.7, expected * 1.3);
			NameProfile profile = harness.profiler.aggregates()
				.profile("checkout", HOUR, SampleKind.CPU, 0, Long.MAX_VALUE);
			assertThat((double) harness.samplesContaining(profile.samples(), "alphaHotMethod").get("alphaHotMethod"))
				.isBetween(expected * 0.7, expected * 1.3);
		}
	}

	@Test
	void bandsSeparateSlowFromTypicalAndTheDiffShowsTheSlowOnlyMethod() {
		try (ProfilingHarness harness = new ProfilingHarness(true, 1000)) {
			List<String> typical = new ArrayList<>();
			List<String> slow = new ArrayList<>();
			// One in ten is slow: the name's p90 is a typical span, so by default the
			// slow ones are compared.
			for (int i = 0; i < 50; i++) {
				if (i % 10 == 9) {
					slow.add(root(harness, NAME, () -> {
						Workloads.burnAlpha(25);
						Workloads.burnBeta(150);
						waitOffCpu(1500);
					}));
				}
				else {
					typical.add(root(harness, NAME, () -> Workloads.burnAlpha(25)));
				}
			}
			harness.collect();
			long longestTypical = typical.stream().mapToLong((id) -> duration(harness, id)).max().getAsLong();
			long shortestSlow = slow.stream().mapToLong((id) -> duration(harness, id)).min().getAsLong();
			System.out.printf("typical durations ms: %s%nslow: %s%n",
					typical.stream().map((id) -> duration(harness, id) / 1_000_000).toList(),
					slow.stream().map((id) -> duration(harness, id) / 1_000_000).toList());
			assertThat(shortestSlow).as("workloads separate in duration by more than a band")
				.isGreaterThan(LatencyBands.upperEdgeNanos(LatencyBands.of(longestTypical)));
			NameAggregates aggregates = harness.profiler.aggregates();
			double alphaPerSpan = 25 / (double) ProfilingHarness.INTERVAL.toMillis();
			double betaPerSlowSpan = 150 / (double) ProfilingHarness.INTERVAL.toMillis();

			NameProfile fast = aggregates.profile(NAME, HOUR, SampleKind.CPU, 0, longestTypical);
			assertThat(fast.spans()).isEqualTo(45);
			var fastCounts = harness.samplesContaining(fast.samples(), "alphaHotMethod", "betaHotMethod");
			assertThat(fastCounts.get("betaHotMethod")).isZero();
			assertThat((double) fastCounts.get("alphaHotMethod")).isBetween(45 * alphaPerSpan * 0.7,
					45 * alphaPerSpan * 1.3);

			NameProfile slowOnes = aggregates.profile(NAME, HOUR, SampleKind.CPU, shortestSlow, Long.MAX_VALUE);
			assertThat(slowOnes.spans()).isEqualTo(5);
			var slowCounts = harness.samplesContaining(slowOnes.samples(), "alphaHotMethod", "betaHotMethod");
			assertThat((double) slowCounts.get("betaHotMethod")).isBetween(5 * betaPerSlowSpan * 0.7,
					5 * betaPerSlowSpan * 1.3);

			// A threshold between the two groups (at a band edge, so that no rounding
			// moves it).
			long threshold = LatencyBands.upperEdgeNanos(LatencyBands.of(longestTypical));
			ProfileDiff diff = aggregates.comparisons().slowAgainstTypical(NAME, HOUR, SampleKind.CPU, threshold);
			assertThat(diff.thresholdNanos()).isEqualTo(threshold);
			assertThat(diff.slowSpans()).isEqualTo(5);
			assertThat(diff.typicalSpans()).isEqualTo(45);
			long[] beta = sides(harness, diff.tree(), "betaHotMethod");
			long[] alpha = sides(harness, diff.tree(), "alphaHotMethod");
			assertThat(beta[1]).as("slow-only method on the typical side").isZero();
			assertThat((double) beta[0]).isBetween(5 * betaPerSlowSpan * 0.7, 5 * betaPerSlowSpan * 1.3);
			// Common work: about the same per request on both sides.
			assertThat((double) alpha[0]).isBetween(5 * alphaPerSpan * 0.5, 5 * alphaPerSpan * 1.5);
			assertThat((double) alpha[1]).isBetween(45 * alphaPerSpan * 0.7, 45 * alphaPerSpan * 1.3);

			// One slow span against the typical ones of its name.
			ProfileDiff one = aggregates.comparisons()
				.requestAgainstTypical(harness.record(slow.get(0)), HOUR, SampleKind.CPU);
			assertThat(one.slowSpans()).isEqualTo(1);
			assertThat(one.typicalSpans()).isEqualTo(45);
			ProfileDiff byDefault = aggregates.comparisons().slowAgainstTypical(NAME, HOUR, SampleKind.CPU, null);
			assertThat(byDefault.slowSpans()).isEqualTo(5);
			assertThat(sides(harness, byDefault.tree(), "betaHotMethod")).containsExactly(beta);
			assertThat(sides(harness, one.tree(), "betaHotMethod")[1]).isZero();
			assertThat(sides(harness, one.tree(), "betaHotMethod")[0]).isEqualTo(harness
				.samplesContaining(InclusiveSamples.of(harness.record(slow.get(0)), SampleKind.CPU), "betaHotMethod")
				.get("betaHotMethod"));
		}
	}

	private static long[] sides(ProfilingHarness harness, StackTree tree, String method) {
		long[] sides = new long[2];
		tree.visit((StackTree.NodeVisitor) (path, depth, node) -> {
			String frame = harness.profiler.store().frames().name(path[depth - 1]);
			boolean outermost = true;
			for (int i = 0; i < depth - 1; i++) {
				outermost &= !harness.profiler.store().frames().name(path[i]).endsWith("." + method);
			}
			if (frame.endsWith("." + method) && outermost) {
				sides[0] += node.total(0);
				sides[1] += node.total(1);
			}
		});
		return sides;
	}

	private static long duration(ProfilingHarness harness, String spanId) {
		SpanRecord record = harness.record(spanId);
		return record.endEpochNanos() - record.startEpochNanos();
	}

	/** A span that waits: the wall time that makes it slow is spent parked. */
	private static void waitOffCpu(long millis) {
		long until = System.nanoTime() + millis * 1_000_000;
		while (System.nanoTime() < until) {
			LockSupport.parkNanos(until - System.nanoTime());
		}
	}

	private static String root(ProfilingHarness harness, String name, Runnable work) {
		Span span = harness.tracer.spanBuilder(name).setNoParent().startSpan();
		try (Scope scope = span.makeCurrent()) {
			work.run();
		}
		finally {
			span.end();
		}
		return span.getSpanContext().getSpanId();
	}

}
