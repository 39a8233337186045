package dev.spanprofile.benchmarks.hook;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.autoconfigure.unsampled.UnsampledRequestObservationHandler;
import dev.spanprofile.lifecycle.UnsampledProfilingRate;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationTracking;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * What counting and profiling a request that tracing did not sample costs the request's
 * thread: one observation (start, scope opened and closed, stop) as Spring's server
 * filter makes it, traced by Micrometer's OpenTelemetry bridge with a sampler that drops
 * every span, with and without spanprofile's unsampled-request handler (and, for what the
 * handler costs the others, with a sampler that keeps every span). The profiler runs (its
 * activation hook records, a collector drains every 50 ms) in both, so the difference is
 * the handler's alone: the request object, a map entry in the observation's context, two
 * change points and the latency count.
 * <p>
 * A plain loop, not JMH: rounds of each variant alternate, and each figure is the median
 * over the rounds. Run with
 * {@code java -cp <benchmarks classpath> dev.spanprofile.benchmarks.hook.UnsampledRequestCost [rounds] [requests]}.
 */
public final class UnsampledRequestCost {

	private static final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
		.getThreadMXBean();

	private static volatile Object sink;

	private UnsampledRequestCost() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 9;
		int requests = (args.length > 1) ? Integer.parseInt(args[1]) : 200_000;
		ActivationTracking.install();
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler, StoreSettings.defaults(),
				Duration.ofSeconds(1));
		try (SpanProfiler profiler = new SpanProfiler(settings, (frames) -> new NoSamples());
				SdkTracerProvider dropping = SdkTracerProvider.builder().setSampler(Sampler.alwaysOff()).build();
				SdkTracerProvider sampling = SdkTracerProvider.builder().setSampler(Sampler.alwaysOn()).build()) {
			if (!profiler.start() || !ActivationTracking.isActive()) {
				throw new IllegalStateException("profiler not recording: " + profiler.status());
			}
			UnsampledRequestObservationHandler handler = new UnsampledRequestObservationHandler(
					profiler.unsampledRequests(), UnsampledProfilingRate.UNLIMITED, (context) -> false);
			compare("unsampled request", registry(dropping, null), registry(dropping, handler), rounds, requests);
			// What the handler costs the requests tracing samples: a look at their span
			// as they start.
			compare("sampled request", registry(sampling, null), registry(sampling, handler), rounds, requests);
			System.out.printf("counted under the name as unsampled: %d requests%n",
					profiler.aggregates().summary("http get /owners/{ownerId}", Duration.ofHours(1)).unsampled());
		}
	}

	private static ObservationRegistry registry(SdkTracerProvider provider,
			UnsampledRequestObservationHandler handler) {
		OtelTracer tracer = new OtelTracer(provider.get("bench"), new OtelCurrentTraceContext(), (event) -> {
		});
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
		if (handler != null) {
			registry.observationConfig().observationHandler(handler);
		}
		return registry;
	}

	private static void compare(String what, ObservationRegistry tracingOnly, ObservationRegistry withHandler,
			int rounds, int requests) {
		// Warm-up: both paths compiled before anything is measured.
		for (int i = 0; i < 5; i++) {
			measure(tracingOnly, requests);
			measure(withHandler, requests);
		}
		double[][] without = new double[rounds][];
		double[][] with = new double[rounds][];
		for (int round = 0; round < rounds; round++) {
			without[round] = measure(tracingOnly, requests);
			with[round] = measure(withHandler, requests);
		}
		double nanosWithout = median(without, 0);
		double nanosWith = median(with, 0);
		double bytesWithout = median(without, 1);
		double bytesWith = median(with, 1);
		System.out.printf("%s, tracing only:      %7.1f ns  %6.1f B%n", what, nanosWithout, bytesWithout);
		System.out.printf("%s, with the handler:  %7.1f ns  %6.1f B%n", what, nanosWith, bytesWith);
		System.out.printf("%s, the handler's share: %+.1f ns, %+.1f B (median of %d rounds of %d)%n", what,
				nanosWith - nanosWithout, bytesWith - bytesWithout, rounds, requests);
	}

	/** Nanoseconds and bytes allocated per request. */
	private static double[] measure(ObservationRegistry registry, int requests) {
		long threadId = Thread.currentThread().getId();
		long bytesBefore = threads.getThreadAllocatedBytes(threadId);
		long start = System.nanoTime();
		for (int i = 0; i < requests; i++) {
			Observation observation = Observation.createNotStarted("http.server.requests", registry)
				.contextualName("http get /owners/{ownerId}")
				.start();
			try (Observation.Scope scope = observation.openScope()) {
				sink = scope;
			}
			observation.stop();
		}
		long nanos = System.nanoTime() - start;
		long bytes = threads.getThreadAllocatedBytes(threadId) - bytesBefore;
		return new double[] { nanos / (double) requests, bytes / (double) requests };
	}

	private static double median(double[][] rounds, int column) {
		double[] values = Arrays.stream(rounds).mapToDouble((round) -> round[column]).sorted().toArray();
		return values[values.length / 2];
	}

	/** Takes no samples: only the request thread's side is measured. */
	private static final class NoSamples implements SamplingEngine {

		@Override
		public String name() {
			return "none";
		}

		@Override
		public void start() {
		}

		@Override
		public long collect(SampleSink sink) {
			return System.nanoTime();
		}

		@Override
		public String activeEvent() {
			return "cpu";
		}

		@Override
		public void close() {
		}

	}

}
