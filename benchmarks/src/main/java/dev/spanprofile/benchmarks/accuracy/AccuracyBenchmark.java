package dev.spanprofile.benchmarks.accuracy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.attribution.AttributionStats;
import dev.spanprofile.benchmarks.Profiling;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.AsyncProfilerEngine;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

/**
 * Eight threads on two cores, each running spans one after another; every span burns a
 * CPU time fixed in advance in one of eight recognisable methods. Afterwards every span's
 * samples are checked against what it did: samples in another span's method are
 * misattributed, and the sample count should be the span's CPU time over the interval. A
 * watcher measures how long after its end each span's profile is reported complete.
 */
public final class AccuracyBenchmark {

	private final AccuracyParameters parameters;

	public AccuracyBenchmark(AccuracyParameters parameters) {
		this.parameters = parameters;
	}

	public AccuracyResult run() throws InterruptedException {
		Profiling.requireActivationHook();
		// The starter's default event: the accuracy claimed is the accuracy a team gets
		// without choosing one.
		ProfilingEvent event = SamplerSettings.defaults().cpuEvent();
		SamplerSettings sampler = new SamplerSettings(event, this.parameters.interval(),
				Path.of(System.getProperty("java.io.tmpdir")), null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler,
				new StoreSettings(10_000, 256L * 1024 * 1024, false), this.parameters.dumpInterval());
		SpanProfiler profiler = new SpanProfiler(settings, (frames) -> new AsyncProfilerEngine(sampler, frames));
		SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
			.addSpanProcessor(profiler.spanProcessor((span) -> false))
			.build();
		try {
			Profiling.requireStarted(profiler);
			return measure(profiler, tracerProvider.get("spanprofile-accuracy"));
		}
		finally {
			profiler.close();
			tracerProvider.close();
		}
	}

	private AccuracyResult measure(SpanProfiler profiler, Tracer tracer) throws InterruptedException {
		ConcurrentLinkedQueue<SpanRun> ended = new ConcurrentLinkedQueue<>();
		CompletionWatcher watcher = new CompletionWatcher(profiler, ended);
		watcher.start();
		CountDownLatch go = new CountDownLatch(1);
		List<Thread> workers = new ArrayList<>();
		for (int thread = 0; thread < this.parameters.threads(); thread++) {
			int index = thread;
			Thread worker = new Thread(() -> work(tracer, index, go, ended), "accuracy-worker-" + thread);
			worker.start();
			workers.add(worker);
		}
		go.countDown();
		for (Thread worker : workers) {
			worker.join();
		}
		watcher.awaitAllComplete(this.parameters.threads() * this.parameters.rounds(),
				this.parameters.dumpInterval().multipliedBy(5).plusSeconds(5));
		profiler.collectNow();
		AttributionStats stats = profiler.attributionStats();
		List<AccuracyResult.SpanOutcome> outcomes = new ArrayList<>();
		for (SpanRun run : ended) {
			outcomes.add(outcome(profiler, run));
		}
		return new AccuracyResult(this.parameters, profiler.status().event(), outcomes, stats.unknown());
	}

	private void work(Tracer tracer, int thread, CountDownLatch go, ConcurrentLinkedQueue<SpanRun> ended) {
		try {
			go.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return;
		}
		for (int round = 0; round < this.parameters.rounds(); round++) {
			// Spans of different lengths, so that threads change span at different
			// moments.
			int hot = (thread + round) % HotMethods.COUNT;
			long cpuTarget = this.parameters.cpuPerWeight().toNanos() * (1 + (thread + round) % 4);
			Span span = tracer.spanBuilder("span-" + thread + "-" + round).startSpan();
			long cpu;
			try (Scope scope = span.makeCurrent()) {
				long start = HotMethods.cpuNanos();
				HotMethods.burn(hot, cpuTarget);
				cpu = HotMethods.cpuNanos() - start;
			}
			finally {
				span.end();
			}
			ended.add(new SpanRun(span.getSpanContext().getSpanId(), hot, cpu, System.nanoTime()));
		}
	}

	private AccuracyResult.SpanOutcome outcome(SpanProfiler profiler, SpanRun run) {
		SpanRecord record = profiler.store().find(run.spanId());
		if (record == null) {
			throw new IllegalStateException("span " + run.spanId() + " is not in the store");
		}
		StackTree samples = record.ownSamples(dev.spanprofile.profile.SampleKind.CPU);
		FrameTable frames = profiler.store().frames();
		long[] inOwn = new long[1];
		long[] inOthers = new long[1];
		samples.visit((path, depth, total, self) -> {
			if (self == 0) {
				return;
			}
			for (int i = 0; i < depth; i++) {
				int hot = HotMethods.indexOf(frames.name(path[i]));
				if (hot >= 0) {
					if (hot == run.hotMethod()) {
						inOwn[0] += self;
					}
					else {
						inOthers[0] += self;
					}
					return;
				}
			}
		});
		double expected = run.cpuNanos() / (double) this.parameters.interval().toNanos();
		Long completeAfter = run.completeAfterNanos();
		return new AccuracyResult.SpanOutcome(run.spanId(), run.hotMethod(), run.cpuNanos(), expected,
				samples.totalSamples(), inOwn[0], inOthers[0],
				(completeAfter != null) ? Duration.ofNanos(completeAfter) : null,
				samples.totalSamples() - run.samplesWhenComplete());
	}

	/** One finished span and what the watcher saw of it. */
	static final class SpanRun {

		private final String spanId;

		private final int hotMethod;

		private final long cpuNanos;

		private final long endNanos;

		private volatile Long completeAfterNanos;

		private volatile long samplesWhenComplete;

		SpanRun(String spanId, int hotMethod, long cpuNanos, long endNanos) {
			this.spanId = spanId;
			this.hotMethod = hotMethod;
			this.cpuNanos = cpuNanos;
			this.endNanos = endNanos;
		}

		String spanId() {
			return this.spanId;
		}

		int hotMethod() {
			return this.hotMethod;
		}

		long cpuNanos() {
			return this.cpuNanos;
		}

		long endNanos() {
			return this.endNanos;
		}

		Long completeAfterNanos() {
			return this.completeAfterNanos;
		}

		long samplesWhenComplete() {
			return this.samplesWhenComplete;
		}

		void completed(long afterNanos, long samples) {
			this.samplesWhenComplete = samples;
			this.completeAfterNanos = afterNanos;
		}

	}

}
