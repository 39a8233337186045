package dev.spanprofile.actuate.metrics;

import java.util.concurrent.TimeUnit;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.attribution.AttributionCounters;
import dev.spanprofile.attribution.AttributionCounters.Result;
import dev.spanprofile.lifecycle.CollectionCycles;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanProfileStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The profiler's own metrics: where samples went, what the store holds, what a collection
 * cycle costs, and what was lost. Every meter reads the core's counters when it is
 * published, so nothing is counted twice and a scrape never waits for a collection cycle.
 */
public class SpanProfileMetrics implements MeterBinder {

	private final SpanProfiler profiler;

	public SpanProfileMetrics(SpanProfiler profiler) {
		this.profiler = profiler;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		bindSamples(registry, this.profiler.attributionCounters());
		bindStore(registry, this.profiler.store());
		CollectionCycles cycles = this.profiler.collectionCycles();
		FunctionTimer
			.builder("spanprofile.collection", cycles, CollectionCycles::count, CollectionCycles::totalNanos,
					TimeUnit.NANOSECONDS)
			.description("Collection cycles: reading the samples taken since the last cycle and joining them to spans")
			.register(registry);
	}

	private static void bindSamples(MeterRegistry registry, AttributionCounters counters) {
		for (Result result : Result.values()) {
			// Allocation and lock samples weigh bytes and nanoseconds, not samples:
			// meters of their own.
			FunctionCounter.builder("spanprofile.allocated", counters, (c) -> c.samples(SampleKind.ALLOC, result))
				.tags("result", result.id())
				.baseUnit("bytes")
				.description("Bytes allocated as the alloc event estimates them, by whether they went to a span")
				.register(registry);
			FunctionCounter.builder("spanprofile.lock.wait", counters, (c) -> c.samples(SampleKind.LOCK, result) / 1e9)
				.tags("result", result.id())
				.baseUnit("seconds")
				.description(
						"Time waited for contended locks as the lock event records it, by whether it went to a span")
				.register(registry);
		}
		for (SampleKind kind : SampleKind.values()) {
			if (!kind.counted()) {
				continue;
			}
			for (Result result : Result.values()) {
				FunctionCounter.builder("spanprofile.samples", counters, (c) -> c.samples(kind, result))
					.tags("event", kind.id(), "result", result.id())
					.baseUnit("samples")
					.description("Samples taken, by what they measure (cpu or wall) and whether they went to a span")
					.register(registry);
			}
		}
		FunctionCounter.builder("spanprofile.timeline.gaps", counters, AttributionCounters::timelineGaps)
			.description("Times a thread switched spans faster than its switches could be recorded; its samples in "
					+ "the lost stretch are counted as unknown")
			.register(registry);
	}

	private static void bindStore(MeterRegistry registry, SpanProfileStore store) {
		Gauge.builder("spanprofile.spans.stored", store, SpanProfileStore::size)
			.baseUnit("spans")
			.description("Spans held in the profile store")
			.register(registry);
		Gauge.builder("spanprofile.store.bytes", store, SpanProfileStore::approximateBytes)
			.baseUnit(BaseUnits.BYTES)
			.description("Approximate heap held by the profile store")
			.register(registry);
		FunctionCounter.builder("spanprofile.spans.evicted", store, SpanProfileStore::evictedSpans)
			.baseUnit("spans")
			.description("Spans dropped with their profiles to keep the store within spanprofile.max-spans and "
					+ "spanprofile.max-memory")
			.register(registry);
		Gauge.builder("spanprofile.requests.awaiting", store, SpanProfileStore::awaitingSamples)
			.baseUnit("requests")
			.description("Requests dropped from the profile store whose samples are still being joined, for the "
					+ "span-name aggregates and exports")
			.register(registry);
		FunctionCounter.builder("spanprofile.requests.incomplete", store, SpanProfileStore::droppedIncomplete)
			.baseUnit("requests")
			.description("Requests dropped before their samples were joined with no room to await them: their "
					+ "profiles in the span-name aggregates and exports miss samples")
			.register(registry);
	}

}
