package dev.spanprofile;

import java.util.Map;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stopping and starting the same engine again, as the endpoint's switch does.
 */
class RestartTest {

	@Test
	void restartKeepsProfilesAndNeverGivesLaterWorkToASpanFromBeforeTheStop() throws Exception {
		try (ProfilingHarness harness = new ProfilingHarness(false)) {
			Span before = harness.tracer.spanBuilder("before").startSpan();
			Scope scope = before.makeCurrent();
			Workloads.burnAlpha(300);
			harness.profiler.stop();
			assertThat(harness.profiler.status().running()).isFalse();
			// Nothing records this close: the thread's state is stale until its next
			// change.
			scope.close();
			before.end();

			Span whileStopped = harness.tracer.spanBuilder("while-stopped").startSpan();
			whileStopped.end();
			assertThat(harness.profiler.store().find(whileStopped.getSpanContext().getSpanId())).isNull();

			assertThat(harness.profiler.start()).as("%s", harness.profiler.status()).isTrue();
			// Outside any span, on the thread that ran "before" last.
			Workloads.burnBeta(400);
			Span after = harness.tracer.spanBuilder("after").startSpan();
			try (Scope ignored = after.makeCurrent()) {
				Workloads.burnGamma(300);
			}
			finally {
				after.end();
			}
			harness.collect();

			SpanRecord beforeRecord = harness.record(before.getSpanContext().getSpanId());
			assertThat(beforeRecord.inFlight()).as("an end while stopped is still recorded").isFalse();
			Map<String, Long> beforeCounts = harness.samplesContaining(
					beforeRecord.ownSamples(dev.spanprofile.profile.SampleKind.CPU), "alphaHotMethod", "betaHotMethod");
			assertThat(beforeCounts.get("alphaHotMethod")).isGreaterThan(15);
			assertThat(beforeCounts.get("betaHotMethod")).as("work after the restart in a span from before").isZero();
			Map<String, Long> afterCounts = harness.samplesContaining(harness.record(after.getSpanContext().getSpanId())
				.ownSamples(dev.spanprofile.profile.SampleKind.CPU), "gammaHotMethod", "betaHotMethod");
			assertThat(afterCounts.get("gammaHotMethod")).as("samples after the restart").isGreaterThan(15);
			assertThat(afterCounts.get("betaHotMethod")).isZero();
		}
	}

}
