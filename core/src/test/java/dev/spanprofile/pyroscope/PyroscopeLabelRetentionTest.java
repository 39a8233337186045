package dev.spanprofile.pyroscope;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;

import dev.spanprofile.OnSpanEnd;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationRecorder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * With Pyroscope export enabled but its engine not running (this instance not drawn by
 * {@code sample-rate}, the start refused, or the runtime switch off), span labels cost
 * nothing that lasts: traffic leaves no label and no pending name behind, and no span
 * advertises a profile that nobody records.
 */
class PyroscopeLabelRetentionTest {

	private static final int REQUESTS = 5_000;

	@Test
	void anInstanceNotDrawnKeepsNoLabels() {
		PyroscopeSettings pyroscope = settings("checkout-service", 0.5);
		try (Traffic traffic = new Traffic(pyroscope, () -> 0.9)) {
			assertThat(traffic.profiler.start()).isFalse();
			assertThat(traffic.profiler.status().problem()).contains("sample-rate");
			traffic.requests(REQUESTS);
			traffic.assertNothingRetained();
		}
	}

	@Test
	void aRefusedStartKeepsNoLabels() {
		PyroscopeSettings pyroscope = settings(null, 1.0);
		try (Traffic traffic = new Traffic(pyroscope, () -> 0.0)) {
			assertThat(traffic.profiler.start()).isFalse();
			assertThat(traffic.profiler.status().problem()).contains("application name");
			traffic.requests(REQUESTS);
			traffic.assertNothingRetained();
		}
	}

	@Test
	void switchedOffKeepsNoLabels() {
		PyroscopeSettings pyroscope = settings("checkout-service", 1.0);
		try (Traffic traffic = new Traffic(pyroscope, () -> 0.0)) {
			assertThat(traffic.profiler.start()).as("started: %s", traffic.profiler.status()).isTrue();
			traffic.requests(100);
			assertThat(traffic.linked.get()).as("spans linked while exporting").isEqualTo(100);
			// A request in progress across the switch: started labelled, ended after the
			// stop.
			Span across = traffic.tracer.spanBuilder("across").startSpan();
			traffic.profiler.stop();
			across.end();
			traffic.linked.set(0);
			traffic.requests(REQUESTS);
			traffic.assertNothingRetained();

			// Switched on again, it labels again.
			assertThat(traffic.profiler.start()).as("restarted: %s", traffic.profiler.status()).isTrue();
			traffic.requests(10);
			assertThat(traffic.linked.get()).isEqualTo(10);
		}
	}

	@Test
	void theInstanceIsDrawnOnce() {
		AtomicInteger draws = new AtomicInteger();
		SamplerSettings sampler = sampler();
		PyroscopeEngine engine = new PyroscopeEngine(settings("checkout-service", 0.5), new SpanLabels(true, 100),
				sampler, new FrameTable(), ActivationRecorder.global(), () -> {
					draws.incrementAndGet();
					return 0.9;
				});
		for (int i = 0; i < 3; i++) {
			assertThatExceptionOfType(SamplerUnavailableException.class).isThrownBy(engine::start)
				.withMessageContaining("sample-rate");
		}
		assertThat(draws.get()).as("draws over three starts").isEqualTo(1);
	}

	private static PyroscopeSettings settings(String applicationName, double sampleRate) {
		return new PyroscopeSettings("http://127.0.0.1:9", applicationName, null, null, null, null, Map.of(),
				Duration.ofSeconds(60), 1, 1, 1, Duration.ofSeconds(1), true, true, 100, true, sampleRate);
	}

	private static SamplerSettings sampler() {
		return new SamplerSettings(ProfilingEvent.CPU, Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null);
	}

	/**
	 * A tracer whose spans go through spanprofile's and the Pyroscope processor, counting
	 * profile links.
	 */
	private static final class Traffic implements AutoCloseable {

		final SpanLabels labels = new SpanLabels(true, 100);

		final SpanProfiler profiler;

		final SdkTracerProvider tracerProvider;

		final Tracer tracer;

		final AtomicInteger linked = new AtomicInteger();

		Traffic(PyroscopeSettings pyroscope, DoubleSupplier draw) {
			SamplerSettings sampler = sampler();
			this.profiler = new SpanProfiler(
					new SpanProfilerSettings(sampler, StoreSettings.defaults(), Duration.ofMillis(200)),
					(frames) -> new PyroscopeEngine(pyroscope, this.labels, sampler, frames,
							ActivationRecorder.global(), draw));
			this.tracerProvider = SdkTracerProvider.builder()
				.addSpanProcessor(this.profiler.spanProcessor((span) -> false))
				.addSpanProcessor(new PyroscopeSpanProcessor(this.labels))
				// Counts ended spans that carry pyroscope.profile.id.
				.addSpanProcessor(new OnSpanEnd((span) -> {
					if (span.getAttribute(PyroscopeSpanProcessor.PROFILE_ID) != null) {
						this.linked.incrementAndGet();
					}
				}))
				.build();
			this.tracer = this.tracerProvider.get("spanprofile-label-retention-test");
		}

		/**
		 * Requests of a root and a child each, with distinct names as real traffic has.
		 */
		void requests(int count) {
			for (int i = 0; i < count; i++) {
				Span root = this.tracer.spanBuilder("GET /orders/" + (i % 50)).startSpan();
				try (Scope scope = root.makeCurrent()) {
					this.tracer.spanBuilder("db query").setParent(Context.current()).startSpan().end();
				}
				finally {
					root.end();
				}
			}
		}

		void assertNothingRetained() {
			assertThat(this.labels.tracked()).as("labels of spans in progress").isZero();
			assertThat(this.labels.pendingNames()).as("names waiting for an upload that never comes").isZero();
			assertThat(this.linked.get()).as("spans advertising a profile nobody records").isZero();
		}

		@Override
		public void close() {
			this.profiler.close();
			this.tracerProvider.close();
		}

	}

}
