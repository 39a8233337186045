package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationTracking;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real engine (async-profiler) and a real OpenTelemetry SDK tracer wired to it, as the
 * starter wires them.
 */
final class ProfilingHarness implements AutoCloseable {

	static {
		// Must happen before anything in this JVM touches the OpenTelemetry context.
		ActivationTracking.install();
	}

	static final Duration INTERVAL = Duration.ofMillis(10);

	final SpanProfiler profiler;

	final SdkTracerProvider tracerProvider;

	final Tracer tracer;

	private SampleTapEngine tap;

	ProfilingHarness(boolean rootSpanOnly) {
		this(rootSpanOnly, 1000);
	}

	ProfilingHarness(boolean rootSpanOnly, int maxSpans) {
		this(rootSpanOnly, maxSpans, EngineChoice.ASYNC_PROFILER, Set.of(ProfilingEvent.CPU));
	}

	ProfilingHarness(EngineChoice engine, Set<ProfilingEvent> events) {
		this(false, 1000, engine, events);
	}

	ProfilingHarness(boolean rootSpanOnly, int maxSpans, EngineChoice engine, Set<ProfilingEvent> events) {
		this(rootSpanOnly, maxSpans, engine, events, INTERVAL, Duration.ofMillis(200), Function.identity());
	}

	/**
	 * @param decorateEngine wraps the real engine, e.g. to slow its collect cycles down
	 */
	ProfilingHarness(boolean rootSpanOnly, int maxSpans, EngineChoice engine, Set<ProfilingEvent> events,
			Duration interval, Duration dumpInterval, Function<SamplingEngine, SamplingEngine> decorateEngine) {
		this(rootSpanOnly, maxSpans, engine, events, interval, SamplerSettings.DEFAULT_ALLOC_INTERVAL, dumpInterval,
				decorateEngine);
	}

	/**
	 * @param allocInterval bytes between allocation samples, for the alloc event
	 */
	ProfilingHarness(boolean rootSpanOnly, int maxSpans, EngineChoice engine, Set<ProfilingEvent> events,
			Duration interval, long allocInterval, Duration dumpInterval,
			Function<SamplingEngine, SamplingEngine> decorateEngine) {
		this(rootSpanOnly, maxSpans, engine, events, interval, allocInterval, Duration.ZERO, dumpInterval,
				decorateEngine);
	}

	/**
	 * @param lockThreshold the lock event's threshold (spanprofile.lock-threshold)
	 */
	ProfilingHarness(boolean rootSpanOnly, int maxSpans, EngineChoice engine, Set<ProfilingEvent> events,
			Duration interval, long allocInterval, Duration lockThreshold, Duration dumpInterval,
			Function<SamplingEngine, SamplingEngine> decorateEngine) {
		this(new SamplerSettings(events, interval, Path.of(System.getProperty("java.io.tmpdir")), null, null,
				allocInterval, lockThreshold), rootSpanOnly, maxSpans, engine, dumpInterval, decorateEngine);
	}

	/**
	 * @param sampler how to sample, waits included
	 */
	ProfilingHarness(SamplerSettings sampler, boolean rootSpanOnly, int maxSpans, EngineChoice engine,
			Duration dumpInterval, Function<SamplingEngine, SamplingEngine> decorateEngine) {
		assertThat(ActivationTracking.isActive()).as("activation hook installed").isTrue();
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler,
				new StoreSettings(maxSpans, 64L * 1024 * 1024, rootSpanOnly), dumpInterval);
		this.profiler = new SpanProfiler(settings, (frames) -> {
			this.tap = new SampleTapEngine(decorateEngine.apply(engine.create(sampler, frames)));
			return this.tap;
		});
		this.tracerProvider = SdkTracerProvider.builder()
			.addSpanProcessor(this.profiler.spanProcessor(span -> false))
			.build();
		this.tracer = this.tracerProvider.get("spanprofile-test");
		// Spans' CPU time read from their threads' clocks too, so that tests can hold the
		// samples against it.
		this.profiler.setExactCpuTime(true);
		// A profiling test that cannot profile must fail loudly, never pass by skipping.
		assertThat(this.profiler.start()).as("profiler started: %s", this.profiler.status()).isTrue();
	}

	/** Samples per frame-name suffix within one span's collapsed stacks. */
	Map<String, Long> samplesContaining(StackTree tree, String... methods) {
		Map<String, Long> counts = new HashMap<>();
		for (String method : methods) {
			counts.put(method, 0L);
		}
		String collapsed = CollapsedStacks.render(tree, this.profiler.store().frames());
		for (String line : collapsed.split("\n")) {
			if (line.isEmpty()) {
				continue;
			}
			long count = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			for (String method : methods) {
				if (line.contains("." + method + ";") || line.contains("." + method + " ")) {
					counts.merge(method, count, Long::sum);
				}
			}
		}
		return counts;
	}

	/**
	 * Samples of a kind the engine delivered so far, joined to a span or not, whose stack
	 * contains {@code method}: what the sampler took, to compare with what the join gave
	 * each span.
	 */
	long taken(SampleKind kind, String method) {
		return this.tap.samplesIn(kind, method, this.profiler.store().frames());
	}

	/**
	 * From now on, keep when each sample of a kind on a thread was taken, for
	 * {@link #sampleTimes}.
	 */
	void keepSampleTimes(SampleKind kind, Thread thread) {
		this.tap.keepTimes(kind, thread.getId());
	}

	/**
	 * @return when each sample delivered since {@link #keepSampleTimes} was taken
	 * ({@code System.nanoTime()})
	 */
	List<Long> sampleTimes() {
		return this.tap.timesOf();
	}

	/** Collection cycles the engine has finished. */
	long collects() {
		return this.tap.collects();
	}

	/**
	 * Weight of a kind delivered after a collect had said everything stamped that early
	 * was in.
	 */
	long late(SampleKind kind) {
		return this.tap.late(kind);
	}

	/** The same by Java thread id. */
	Map<Long, Long> lateByThread(SampleKind kind) {
		return this.tap.lateByThread(kind);
	}

	/**
	 * A span's samples in a method that only that span runs: at least 90 % of what the
	 * sampler took there (a join that loses samples near switches fails), and never more.
	 */
	void assertGotWhatWasTaken(SpanRecord span, SampleKind kind, String method) {
		long taken = taken(kind, method);
		long got = samplesContaining(span.ownSamples(kind), method).get(method);
		assertThat(got).as("%s samples of %s in %s, of %d taken", kind, method, span.name(), taken)
			.isBetween((long) Math.ceil(0.9 * taken), taken);
	}

	/**
	 * A count that a periodic sampler predicts: within four standard deviations of a
	 * Poisson count either way (a periodic sampler varies less than that).
	 */
	static void assertAboutExpected(String what, long count, double expected) {
		double tolerance = 4 * Math.sqrt(expected);
		assertThat((double) count).as("%s vs expected %.1f", what, expected)
			.isBetween(expected - tolerance, expected + tolerance);
	}

	SpanRecord record(String spanId) {
		SpanRecord record = this.profiler.store().find(spanId);
		assertThat(record).as("span %s stored", spanId).isNotNull();
		return record;
	}

	/**
	 * Wait until every sample taken so far has been joined. Flight Recorder delivers
	 * events about once a second, so for it this waits for two deliveries after now.
	 */
	void collect() {
		long now = System.nanoTime();
		long deadline = now + Duration.ofSeconds(10).toNanos();
		this.profiler.collectNow();
		while (this.profiler.completeUpToEpochNanos() < dev.spanprofile.tracking.MonotonicEpoch.toEpochNanos(now)
				&& System.nanoTime() < deadline) {
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			this.profiler.collectNow();
		}
	}

	@Override
	public void close() {
		this.profiler.close();
		this.tracerProvider.close();
	}

}
