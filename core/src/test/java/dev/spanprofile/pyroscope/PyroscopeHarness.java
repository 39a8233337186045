package dev.spanprofile.pyroscope;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationTracking;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real Pyroscope agent driven by a real spanprofile engine and OpenTelemetry SDK,
 * exporting to {@code serverAddress}.
 */
final class PyroscopeHarness implements AutoCloseable {

	static {
		// Must happen before anything in this JVM touches the OpenTelemetry context.
		ActivationTracking.install();
	}

	static final Duration INTERVAL = Duration.ofMillis(10);

	final SpanProfiler profiler;

	final PyroscopeEngine engine;

	final SdkTracerProvider tracerProvider;

	final Tracer tracer;

	PyroscopeHarness(String serverAddress, boolean rootSpanOnly, int queueCapacity, int maxTries) {
		this(serverAddress, rootSpanOnly, queueCapacity, maxTries, Set.of(ProfilingEvent.CPU),
				SamplerSettings.DEFAULT_ALLOC_INTERVAL, Duration.ZERO, Duration.ofSeconds(1));
	}

	/**
	 * @param events what the agent samples, e.g. cpu and alloc
	 * @param allocInterval bytes between allocation samples
	 * @param lockThreshold shortest lock wait recorded
	 * @param uploadInterval how often the agent cuts, uploads and hands over a recording
	 */
	PyroscopeHarness(String serverAddress, boolean rootSpanOnly, int queueCapacity, int maxTries,
			Set<ProfilingEvent> events, long allocInterval, Duration lockThreshold, Duration uploadInterval) {
		assertThat(ActivationTracking.isActive()).as("activation hook installed").isTrue();
		PyroscopeSettings pyroscope = new PyroscopeSettings(serverAddress, "checkout-service", "tenant-a", null, null,
				null, Map.of("env", "test"), uploadInterval, 1, queueCapacity, maxTries, Duration.ofSeconds(2),
				rootSpanOnly, true, 100, true, 1.0);
		SamplerSettings sampler = new SamplerSettings(events, INTERVAL, Path.of(System.getProperty("java.io.tmpdir")),
				null, null, allocInterval, lockThreshold);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler,
				new StoreSettings(1000, 64L * 1024 * 1024, false), Duration.ofMillis(200));
		SpanLabels labels = new SpanLabels(rootSpanOnly, pyroscope.maxSpanNames());
		PyroscopeEngine[] created = new PyroscopeEngine[1];
		this.profiler = new SpanProfiler(settings,
				(frames) -> created[0] = new PyroscopeEngine(pyroscope, labels, sampler, frames));
		this.engine = created[0];
		this.tracerProvider = SdkTracerProvider.builder()
			.addSpanProcessor(this.profiler.spanProcessor((span) -> false))
			.addSpanProcessor(new PyroscopeSpanProcessor(labels))
			.build();
		this.tracer = this.tracerProvider.get("spanprofile-pyroscope-test");
		// A profiling test that cannot profile must fail loudly, never pass by skipping.
		assertThat(this.profiler.start()).as("profiler started: %s", this.profiler.status()).isTrue();
	}

	static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			assertThat(System.nanoTime()).as("timed out waiting for " + what).isLessThan(deadline);
			Thread.sleep(100);
		}
	}

	@Override
	public void close() {
		this.profiler.close();
		this.tracerProvider.close();
	}

}
