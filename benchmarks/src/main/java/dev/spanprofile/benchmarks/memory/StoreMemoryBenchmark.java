package dev.spanprofile.benchmarks.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.benchmarks.Profiling;
import dev.spanprofile.sampling.AsyncProfilerEngine;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;

/**
 * Floods a profiling engine with short requests (a server span with one child, some CPU
 * in varying stacks so that samples build trees) at a fixed rate, and compares the heap
 * the store really holds with its own estimate and its budget.
 * <p>
 * Real heap is measured twice: during the run as heap in use after a full GC minus the
 * same before the run, and at the end as the heap freed when the engine is dropped, which
 * is what the store retained (the engine's other parts, a frame table and per-thread
 * timelines, are small beside it).
 */
public final class StoreMemoryBenchmark {

	private static final int CHECKPOINTS = 4;

	private static final long ESTIMATE_POLL_NANOS = 20_000_000;

	private final MemoryParameters parameters;

	private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

	public StoreMemoryBenchmark(MemoryParameters parameters) {
		this.parameters = parameters;
	}

	public MemoryResult run() throws InterruptedException {
		Profiling.requireActivationHook();
		MemoryResult withStore = flood();
		// The engine and tracer are out of reach now: what the next full GC frees is what
		// they held.
		long heapWithoutStore = heapAfterGc();
		return withStore.withRetained(withStore.retainedBytes() - heapWithoutStore);
	}

	/**
	 * The run; its result's retained bytes are the heap in use with the store still
	 * reachable.
	 */
	private MemoryResult flood() throws InterruptedException {
		SamplerSettings sampler = new SamplerSettings(ProfilingEvent.CPU, Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null);
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler,
				new StoreSettings(this.parameters.maxSpans(), this.parameters.maxBytes(), true), Duration.ofSeconds(1));
		SpanProfiler profiler = new SpanProfiler(settings, (frames) -> new AsyncProfilerEngine(sampler, frames));
		try (SdkTracerProvider tracerProvider = SdkTracerProvider.builder()
			.addSpanProcessor(profiler.spanProcessor((span) -> false))
			.build()) {
			Profiling.requireStarted(profiler);
			Tracer tracer = tracerProvider.get("spanprofile-memory");
			long baseline = heapAfterGc();
			AtomicLong spansCreated = new AtomicLong();
			long start = System.nanoTime();
			long end = start + this.parameters.duration().toNanos();
			List<Thread> generators = new ArrayList<>();
			for (int i = 0; i < this.parameters.threads(); i++) {
				Thread generator = new Thread(() -> generate(tracer, start, end, spansCreated),
						"memory-generator-" + i);
				generator.start();
				generators.add(generator);
			}
			long maxEstimate = 0;
			long maxSpansStored = 0;
			List<MemoryResult.Checkpoint> checkpoints = new ArrayList<>();
			long checkpointEvery = this.parameters.duration().toNanos() / CHECKPOINTS;
			long nextCheckpoint = start + checkpointEvery;
			while (System.nanoTime() < end) {
				maxEstimate = Math.max(maxEstimate, profiler.store().approximateBytes());
				maxSpansStored = Math.max(maxSpansStored, profiler.store().size());
				long now = System.nanoTime();
				if (now >= nextCheckpoint && now < end - checkpointEvery / 4) {
					long heap = heapAfterGc() - baseline;
					checkpoints.add(new MemoryResult.Checkpoint(Duration.ofNanos(now - start), profiler.store().size(),
							profiler.store().approximateBytes(), heap));
					nextCheckpoint += checkpointEvery;
				}
				LockSupport.parkNanos(ESTIMATE_POLL_NANOS);
			}
			for (Thread generator : generators) {
				generator.join();
			}
			Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
			profiler.stop();
			return new MemoryResult(this.parameters, spansCreated.get(), elapsed, maxEstimate, maxSpansStored,
					checkpoints, profiler.store().size(), profiler.store().approximateBytes(), heapAfterGc());
		}
	}

	private void generate(Tracer tracer, long start, long end, AtomicLong spansCreated) {
		// Two spans per request; each generator paces its share of the rate against the
		// clock.
		double requestsPerSecond = this.parameters.spansPerSecond() / 2.0 / this.parameters.threads();
		long period = (long) (1_000_000_000L / requestsPerSecond);
		long next = start;
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (true) {
			long now = System.nanoTime();
			if (now >= end) {
				return;
			}
			if (now < next) {
				LockSupport.parkNanos(Math.min(next - now, end - now));
				continue;
			}
			request(tracer, random);
			spansCreated.addAndGet(2);
			next += period;
		}
	}

	private static void request(Tracer tracer, ThreadLocalRandom random) {
		Span server = tracer.spanBuilder("GET /orders/{id}").setSpanKind(SpanKind.SERVER).startSpan();
		try (Scope serverScope = server.makeCurrent()) {
			Span child = tracer.spanBuilder("orders.load").startSpan();
			try (Scope childScope = child.makeCurrent()) {
				VaryingStacks.descend(random.nextInt(4, 24), random.nextInt(1 << 16));
			}
			finally {
				child.end();
			}
		}
		finally {
			server.end();
		}
	}

	private long heapAfterGc() {
		long least = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			System.gc();
			least = Math.min(least, this.memory.getHeapMemoryUsage().getUsed());
		}
		return least;
	}

}
