package dev.spanprofile;

import java.util.Map;

import dev.spanprofile.store.SampleKind;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A parent that burns CPU in one method and a child that burns in another, with each attribution mode.
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
			Map<String, Long> parentInclusive = harness.samplesContaining(parent.inclusiveSamples(SampleKind.CPU), "alphaHotMethod",
					"betaHotMethod");
			System.out.printf("nested, per span: parent own %s, child own %s, parent inclusive %s%n", parentOwn,
					childOwn, parentInclusive);

			assertThat(parentOwn.get("alphaHotMethod")).isGreaterThan(CPU_MILLIS / 10 / 2);
			assertThat(parentOwn.get("betaHotMethod")).isZero();
			assertThat(childOwn.get("betaHotMethod")).isGreaterThan(CPU_MILLIS / 10 / 2);
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
			System.out.printf("nested, root only: parent own %s, child own %d%n", parentOwn, child.ownSampleCount(SampleKind.CPU));
			assertThat(parentOwn.get("alphaHotMethod")).isGreaterThan(CPU_MILLIS / 10 / 2);
			assertThat(parentOwn.get("betaHotMethod")).isGreaterThan(CPU_MILLIS / 10 / 2);
			assertThat(child.ownSampleCount(SampleKind.CPU)).isZero();
			assertThat(child.localRoot()).isSameAs(parent);
			// Only local roots carry samples in this mode, so only they are listed.
			assertThat(harness.profiler.store().recent(r -> true, 10)).extracting(SpanRecord::spanId)
				.contains(ids[0])
				.doesNotContain(ids[1]);
		}
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
