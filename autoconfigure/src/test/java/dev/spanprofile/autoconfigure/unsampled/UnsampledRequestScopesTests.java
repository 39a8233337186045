package dev.spanprofile.autoconfigure.unsampled;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.lifecycle.UnsampledProfilingRate;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.StoreSettings;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests tracing did not sample, with the real {@link ObservationRegistry} and
 * context-propagation driving {@link UnsampledRequestObservationHandler}: every sample
 * taken while a request's observation, or a child of it, is current on a thread belongs
 * to the request, whichever scopes Micrometer opens for it.
 */
class UnsampledRequestScopesTests {

	@TempDir
	Path temp;

	private final StampingEngine engine = new StampingEngine();

	private final ContextSnapshotFactory snapshots = ContextSnapshotFactory.builder().build();

	private SpanProfiler profiler;

	private ObservationRegistry registry;

	private ExecutorService pool;

	@BeforeEach
	void start() {
		SamplerSettings sampler = new SamplerSettings(Set.of(ProfilingEvent.CPU), Duration.ofMillis(10), this.temp,
				null, null);
		this.profiler = new SpanProfiler(
				new SpanProfilerSettings(sampler, new StoreSettings(100, Long.MAX_VALUE, false), Duration.ofHours(1)),
				(frames) -> this.engine);
		assertThat(this.profiler.start()).isTrue();
		this.engine.stack = new int[] { this.profiler.store().frames().intern("app.Work.run", FrameKind.JAVA) };
		this.registry = ObservationRegistry.create();
		this.registry.observationConfig().observationHandler(new UnsampledTracing());
		this.registry.observationConfig()
			.observationHandler(new UnsampledRequestObservationHandler(this.profiler.unsampledRequests(),
					UnsampledProfilingRate.UNLIMITED, (context) -> false));
		this.pool = Executors.newSingleThreadExecutor();
	}

	@AfterEach
	void stop() throws InterruptedException {
		this.pool.shutdown();
		assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		this.profiler.close();
	}

	@Test
	void aTaskCarryingTheRequestsContextRunInlineLeavesTheThreadInTheRequest() {
		// As a decorated task run by CallerRunsPolicy on a saturated pool: a second scope
		// of the request's observation on the thread that already has it.
		Observation request = Observation.start("http.server.requests", this.registry).contextualName("http get /one");
		try (Observation.Scope scope = request.openScope()) {
			this.snapshots.captureAll().wrap(this.engine::sample).run();
			for (int i = 0; i < 4; i++) {
				this.engine.sample();
			}
		}
		this.engine.sample(); // after the request's scope: not its own
		request.stop();
		assertThat(cpuSamples("http get /one")).as("CPU samples taken inside the request").isEqualTo(5);
	}

	@Test
	void aTaskHandedToAPoolUnderAChildObservationWorksForTheRequest() throws Exception {
		// As an @Observed service method, or a security or repository observation, around
		// the hand-off.
		Observation request = Observation.start("http.server.requests", this.registry).contextualName("http get /two");
		try (Observation.Scope scope = request.openScope()) {
			Observation child = Observation.start("orders.place", this.registry);
			try (Observation.Scope inner = child.openScope()) {
				this.pool.submit(this.snapshots.captureAll().wrap(() -> {
					for (int i = 0; i < 5; i++) {
						this.engine.sample();
					}
				})).get(10, TimeUnit.SECONDS);
			}
			child.stop();
		}
		// The pool thread, its task done: outside any request.
		this.pool.submit(this.engine::sample).get(10, TimeUnit.SECONDS);
		request.stop();
		assertThat(cpuSamples("http get /two")).as("CPU samples the pool thread took for the request").isEqualTo(5);
	}

	private long cpuSamples(String name) {
		this.profiler.collectNow();
		NameSummary summary = this.profiler.aggregates().summary(name, Duration.ofHours(1));
		assertThat(summary.count()).as("requests named %s", name).isOne();
		return summary.cpuSamples();
	}

	/**
	 * Stands in for Micrometer's tracing handler where the sampler said no: every
	 * observation gets a span that is not sampled.
	 */
	private static final class UnsampledTracing implements ObservationHandler<Observation.Context> {

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

		@Override
		public void onStart(Observation.Context context) {
			TracingObservationHandler.TracingContext tracing = new TracingObservationHandler.TracingContext();
			tracing.setSpan(Span.NOOP);
			context.put(TracingObservationHandler.TracingContext.class, tracing);
		}

	}

	/** A sampler that takes a CPU sample of the calling thread, now, when told to. */
	private static final class StampingEngine implements SamplingEngine {

		private final List<long[]> samples = new ArrayList<>();

		private volatile int[] stack;

		synchronized void sample() {
			this.samples.add(new long[] { Thread.currentThread().getId(), System.nanoTime() });
		}

		@Override
		public String name() {
			return "stamping";
		}

		@Override
		public void start() {
		}

		@Override
		public synchronized long collect(SampleSink sink) {
			for (long[] sample : this.samples) {
				sink.sample(SampleKind.CPU, sample[0], sample[1], this.stack, 1);
			}
			this.samples.clear();
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
