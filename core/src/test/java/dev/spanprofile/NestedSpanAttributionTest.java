package dev.spanprofile;

import java.util.Map;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A parent that burns CPU in one method and a child that burns in another, with each
 * attribution mode.
 */
class NestedSpanAttributionTest {

	private static final long CPU_MILLIS = 800;

	@Test
	void eachSpanKeepsItsOwnSamplesAndTheParentGraphIncludesTheChild() {
		try (ProfilingHarness harness = new ProfilingHarness(false)) {
			String[] ids = runParentWithChild(harness);
			harness.collect();
			SpanRecord parent = harness.record(ids[0]);
			SpanRecord child = harness.record(ids[1]);

			Map<String, Long> parentOwn = harness.samplesContaining(parent.ownSamples(SampleKind.CPU), "alphaHotMethod",
					"betaHotMethod");
			Map<String, Long> childOwn = harness.samplesContaining(child.ownSamples(SampleKind.CPU), "alphaHotMethod",
					"betaHotMethod");
			Map<String, Long> parentInclusive = harness.samplesContaining(InclusiveSamples.of(parent, SampleKind.CPU),
					"alphaHotMethod", "betaHotMethod");
			System.out.printf("nested, per span: parent own %s, child own %s, parent inclusive %s%n", parentOwn,
					childOwn, parentInclusive);

			assertSamplerTookWhatTheCpuTimePredicts(harness);
			harness.assertGotWhatWasTaken(parent, SampleKind.CPU, "alphaHotMethod");
			assertThat(parentOwn.get("betaHotMethod")).isZero();
			harness.assertGotWhatWasTaken(child, SampleKind.CPU, "betaHotMethod");
			assertThat(childOwn.get("alphaHotMethod")).isZero();
			assertThat(parentInclusive.get("alphaHotMethod")).isEqualTo(parentOwn.get("alphaHotMethod"));
			assertThat(parentInclusive.get("betaHotMethod")).isEqualTo(childOwn.get("betaHotMethod"));
			assertThat(harness.profiler.store().recent(r -> true, 10)).extracting(SpanRecord::spanId)
				.contains(ids[0], ids[1]);
		}
	}

	@Test
	void rootSpanOnlyGivesEverySampleToTheLocalRoot() {
		try (ProfilingHarness harness = new ProfilingHarness(true)) {
			String[] ids = runParentWithChild(harness);
			harness.collect();
			SpanRecord parent = harness.record(ids[0]);
			SpanRecord child = harness.record(ids[1]);

			Map<String, Long> parentOwn = harness.samplesContaining(parent.ownSamples(SampleKind.CPU), "alphaHotMethod",
					"betaHotMethod");
			System.out.printf("nested, root only: parent own %s, child own %d%n", parentOwn,
					child.ownSampleCount(SampleKind.CPU));
			assertSamplerTookWhatTheCpuTimePredicts(harness);
			harness.assertGotWhatWasTaken(parent, SampleKind.CPU, "alphaHotMethod");
			harness.assertGotWhatWasTaken(parent, SampleKind.CPU, "betaHotMethod");
			assertThat(child.ownSampleCount(SampleKind.CPU)).isZero();
			assertThat(child.localRoot()).isSameAs(parent);
			// Only local roots carry samples in this mode, so only they are listed.
			assertThat(harness.profiler.store().recent(r -> true, 10)).extracting(SpanRecord::spanId)
				.contains(ids[0])
				.doesNotContain(ids[1]);
		}
	}

	/**
	 * Each span burned CPU_MILLIS of CPU in its method (a little more: the last call runs
	 * to its end).
	 */
	private static void assertSamplerTookWhatTheCpuTimePredicts(ProfilingHarness harness) {
		double expected = CPU_MILLIS / (double) ProfilingHarness.INTERVAL.toMillis();
		ProfilingHarness.assertAboutExpected("alpha samples taken", harness.taken(SampleKind.CPU, "alphaHotMethod"),
				expected);
		ProfilingHarness.assertAboutExpected("beta samples taken", harness.taken(SampleKind.CPU, "betaHotMethod"),
				expected);
	}

	private static String[] runParentWithChild(ProfilingHarness harness) {
		Span parent = harness.tracer.spanBuilder("parent").startSpan();
		Span child;
		try (Scope outer = parent.makeCurrent()) {
			Workloads.burnAlpha(CPU_MILLIS);
			child = harness.tracer.spanBuilder("child").startSpan();
			try (Scope inner = child.makeCurrent()) {
				Workloads.burnBeta(CPU_MILLIS);
			}
			finally {
				child.end();
			}
		}
		finally {
			parent.end();
		}
		return new String[] { parent.getSpanContext().getSpanId(), child.getSpanContext().getSpanId() };
	}

}
