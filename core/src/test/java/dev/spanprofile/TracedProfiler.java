package dev.spanprofile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.sampling.AsyncProfilerEngine;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.slowlog.SlowSpanLogSettings;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.ActivationTracking;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real {@link SpanProfiler} with a chosen sampling engine and work directory, and a
 * real OpenTelemetry SDK tracer reporting to it: what the hardening tests break things
 * around.
 */
final class TracedProfiler implements AutoCloseable {

	static {
		// Before anything in this JVM touches the OpenTelemetry context.
		ActivationTracking.install();
	}

	static final Duration INTERVAL = Duration.ofMillis(10);

	static final Duration DUMP_INTERVAL = Duration.ofMillis(200);

	final SamplerSettings sampler;

	final SpanProfiler profiler;

	final SdkTracerProvider tracerProvider;

	final Tracer tracer;

	private SampleTapEngine tap;

	TracedProfiler(StoreSettings store, Path workDirectory, Function<SamplingEngine, SamplingEngine> decorateEngine) {
		this(store, SlowSpanLogSettings.off(), workDirectory, decorateEngine);
	}

	TracedProfiler(StoreSettings store, SlowSpanLogSettings slowSpanLog, Path workDirectory,
			Function<SamplingEngine, SamplingEngine> decorateEngine) {
		this(store, slowSpanLog, DUMP_INTERVAL, workDirectory, decorateEngine);
	}

	TracedProfiler(StoreSettings store, Duration dumpInterval, Path workDirectory) {
		this(store, SlowSpanLogSettings.off(), dumpInterval, workDirectory, Function.identity());
	}

	TracedProfiler(StoreSettings store, SlowSpanLogSettings slowSpanLog, Duration dumpInterval, Path workDirectory,
			Function<SamplingEngine, SamplingEngine> decorateEngine) {
		assertThat(ActivationTracking.isActive()).as("activation hook installed").isTrue();
		this.sampler = new SamplerSettings(ProfilingEvent.CPU, INTERVAL, workDirectory, null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(this.sampler, store, dumpInterval, slowSpanLog);
		Function<FrameTable, SamplingEngine> engines = (frames) -> {
			this.tap = new SampleTapEngine(decorateEngine.apply(new AsyncProfilerEngine(this.sampler, frames)));
			return this.tap;
		};
		this.profiler = new SpanProfiler(settings, engines);
		this.tracerProvider = SdkTracerProvider.builder()
			.addSpanProcessor(this.profiler.spanProcessor((span) -> false))
			.build();
		this.tracer = this.tracerProvider.get("spanprofile-hardening");
		// A fault test whose profiler never ran would prove nothing: fail loudly instead.
		assertThat(this.profiler.start()).as("profiler started: %s", this.profiler.status()).isTrue();
	}

	TracedProfiler(Path workDirectory) {
		this(new StoreSettings(1000, 64L * 1024 * 1024, true), workDirectory, Function.identity());
	}

	/** Run {@code work} in a new root span on the calling thread; returns the span id. */
	String inRootSpan(String name, Runnable work) {
		Span span = this.tracer.spanBuilder(name).setNoParent().startSpan();
		try (Scope scope = span.makeCurrent()) {
			work.run();
		}
		finally {
			span.end();
		}
		return span.getSpanContext().getSpanId();
	}

	SpanRecord record(String spanId) {
		SpanRecord record = this.profiler.store().find(spanId);
		assertThat(record).as("span %s stored", spanId).isNotNull();
		return record;
	}

	/**
	 * CPU samples the engine delivered so far, joined to a span or not, whose stack
	 * contains {@code method}.
	 */
	long taken(String method) {
		return this.tap.samplesIn(dev.spanprofile.profile.SampleKind.CPU, method, this.profiler.store().frames());
	}

	/**
	 * A span's samples in a method that only that span runs, for {@code cpuMillis} of
	 * CPU: the sampler took about what the CPU time predicts (four standard deviations of
	 * a Poisson count either way), and the span got at least 90 % of what it took there,
	 * never more.
	 */
	void assertGotWhatWasTaken(String spanId, String method, long cpuMillis) {
		long taken = taken(method);
		double expected = cpuMillis / (double) INTERVAL.toMillis();
		assertThat((double) taken).as("samples of %s taken vs expected %.0f", method, expected)
			.isBetween(expected - 4 * Math.sqrt(expected), expected + 4 * Math.sqrt(expected));
		assertThat(samplesIn(spanId, method))
			.as("samples of %s in %s, of %d taken", method, record(spanId).name(), taken)
			.isBetween((long) Math.ceil(0.9 * taken), taken);
	}

	/** Samples of one span (its own) whose stack contains {@code method}. */
	long samplesIn(String spanId, String method) {
		String collapsed = CollapsedStacks.render(record(spanId).ownSamples(dev.spanprofile.profile.SampleKind.CPU),
				this.profiler.store().frames());
		long count = 0;
		for (String line : collapsed.split("\n")) {
			if (line.contains("." + method + ";") || line.contains("." + method + " ")) {
				count += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return count;
	}

	@Override
	public void close() {
		this.profiler.close();
		this.tracerProvider.close();
	}

}
