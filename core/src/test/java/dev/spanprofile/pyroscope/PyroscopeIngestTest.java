package dev.spanprofile.pyroscope;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.tracking.MonotonicEpoch;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.pyroscope.labels.pb.JfrLabels;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real Pyroscope agent uploads to a receiver on loopback; the uploaded JFR and label
 * tables must label each sample with the span that was active on its thread: across
 * nesting, pool hand-offs and spans ended elsewhere, the faults of span-start/end based
 * labelling.
 */
class PyroscopeIngestTest {

	private static final long CPU_MILLIS = 400;

	@Test
	void uploadedSamplesCarryTheActiveSpan() throws Exception {
		try (IngestReceiver receiver = new IngestReceiver();
				PyroscopeHarness harness = new PyroscopeHarness(receiver.address(), false, 8, 3)) {
			ExecutorService pool = Executors.newSingleThreadExecutor();
			Span root = harness.tracer.spanBuilder("checkout").startSpan();
			Span child = harness.tracer.spanBuilder("price-lookup").setParent(Context.current().with(root)).startSpan();
			Span elsewhere = harness.tracer.spanBuilder("ended-elsewhere").startSpan();
			try (Scope rootScope = root.makeCurrent()) {
				Burners.headHot(CPU_MILLIS);
				try (Scope childScope = child.makeCurrent()) {
					Burners.childHot(CPU_MILLIS);
				}
				finally {
					child.end();
				}
				// Grafana's 1.x processor cleared the context here: the parent's tail
				// went unlabelled.
				Burners.tailHot(CPU_MILLIS);
				pool.submit(Context.current().wrap(() -> Burners.pooledHot(CPU_MILLIS))).get();
			}
			finally {
				root.end();
			}
			// The pool thread carries no span any more: its own work must not keep the
			// caller's label.
			pool.submit(() -> Burners.unrelatedHot(CPU_MILLIS)).get();
			try (Scope scope = elsewhere.makeCurrent()) {
				Burners.headHot(1);
			}
			// The span is ended by another thread; this thread's later work must not keep
			// its label.
			pool.submit(() -> elsewhere.end()).get();
			Burners.afterScopeHot(CPU_MILLIS);
			pool.shutdown();
			assertThat(pool.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
			long workEnded = MonotonicEpoch.nowEpochNanos();

			PyroscopeHarness.await("an upload covering the work", Duration.ofSeconds(15),
					() -> receiver.accepted()
						.stream()
						.anyMatch((u) -> Long.parseLong(u.query().get("until")) * 1_000_000_000L > workEnded));
			List<IngestReceiver.Sample> samples = new ArrayList<>();
			Map<Long, String> strings = new java.util.HashMap<>();
			for (IngestReceiver.Upload upload : receiver.accepted()) {
				samples.addAll(upload.samples());
				JfrLabels.LabelsSnapshot labels = upload.labels();
				strings.putAll(labels.getStringsMap());
				assertThat(upload.query().get("name")).startsWith("checkout-service{").contains("env=test");
				assertThat(upload.query().get("format")).isEqualTo("jfr");
				assertThat(upload.headers().get("x-scope-orgid")).isEqualTo("tenant-a");
			}

			long rootId = SpanLabels.parseHex(root.getSpanContext().getSpanId(), 0, 16);
			long childId = SpanLabels.parseHex(child.getSpanContext().getSpanId(), 0, 16);
			long elsewhereId = SpanLabels.parseHex(elsewhere.getSpanContext().getSpanId(), 0, 16);
			String traceId = root.getSpanContext().getTraceId();
			report("head (root, before the child)", samples, "headHot", rootId);
			report("child", samples, "childHot", childId);
			report("tail (root, after the child ended)", samples, "tailHot", rootId);
			report("pool hand-off", samples, "pooledHot", rootId);
			report("pool, unrelated later work", samples, "unrelatedHot", 0);
			report("after a scope whose span another thread ended", samples, "afterScopeHot", 0);
			assertThat(samples).filteredOn((s) -> s.spanId() == elsewhereId && s.in("afterScopeHot")).isEmpty();

			IngestReceiver.Sample rootSample = samples.stream()
				.filter((s) -> s.spanId() == rootId)
				.findFirst()
				.orElseThrow();
			assertThat(strings.get(rootSample.spanName())).isEqualTo("checkout");
			assertThat(String.format("%016x%016x", rootSample.traceIdHigh(), rootSample.traceIdLow()))
				.isEqualTo(traceId);
			IngestReceiver.Sample childSample = samples.stream()
				.filter((s) -> s.spanId() == childId)
				.findFirst()
				.orElseThrow();
			assertThat(strings.get(childSample.spanName())).isEqualTo("price-lookup");
			assertThat(((ReadableSpan) root).getAttribute(PyroscopeSpanProcessor.PROFILE_ID))
				.isEqualTo(root.getSpanContext().getSpanId());

			// The local view parses the very same profiles.
			PyroscopeHarness.await("local collection", Duration.ofSeconds(10), () -> {
				harness.profiler.collectNow();
				return harness.profiler.completeUpToEpochNanos() > workEnded;
			});
			SpanRecord localRoot = harness.profiler.store().find(root.getSpanContext().getSpanId());
			SpanRecord localChild = harness.profiler.store().find(child.getSpanContext().getSpanId());
			long uploadedRoot = samples.stream().filter((s) -> s.spanId() == rootId).count();
			long uploadedChild = samples.stream().filter((s) -> s.spanId() == childId).count();
			long localRootSamples = localRoot.ownSampleCount(SampleKind.CPU);
			long localChildSamples = localChild.ownSampleCount(SampleKind.CPU);
			System.out.printf("pyroscope local view: root %d samples (uploaded with its label: %d), child %d (%d)%n",
					localRootSamples, uploadedRoot, localChildSamples, uploadedChild);
			String rootStacks = CollapsedStacks.render(localRoot.ownSamples(SampleKind.CPU),
					harness.profiler.store().frames());
			assertThat(rootStacks).contains("headHot")
				.contains("tailHot")
				.contains("pooledHot")
				.doesNotContain("childHot")
				.doesNotContain("unrelatedHot")
				.doesNotContain("afterScopeHot");
			assertThat((double) localRootSamples).isBetween(uploadedRoot * 0.95, uploadedRoot * 1.05 + 1);
			assertThat((double) localChildSamples).isBetween(uploadedChild * 0.95, uploadedChild * 1.05 + 1);
			assertThat(harness.engine.uploadStats().failed()).isZero();
		}
	}

	/**
	 * Print how the samples in {@code method} are labelled and require at least 95% to
	 * carry {@code expected}.
	 */
	private static void report(String what, List<IngestReceiver.Sample> samples, String method, long expected) {
		List<IngestReceiver.Sample> in = samples.stream().filter((s) -> s.in(method)).toList();
		long right = in.stream().filter((s) -> s.spanId() == expected).count();
		System.out.printf("pyroscope labels, %s: %d of %d samples labelled %s%n", what, right, in.size(),
				(expected != 0) ? String.format("%016x", expected) : "with no span");
		// 400 ms of CPU at 10 ms: about 40 samples expected.
		assertThat(in.size()).as("samples in %s", method).isGreaterThanOrEqualTo(20);
		assertThat(right).as("%s samples labelled right", what)
			.isGreaterThanOrEqualTo((long) Math.ceil(in.size() * 0.95));
	}

}
