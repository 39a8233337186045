package dev.spanprofile;

import java.time.Duration;

import dev.spanprofile.aggregate.AggregateSettings;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;

/**
 * Everything the engine needs to know.
 *
 * @param sampler what and how often to sample
 * @param store how much to keep and how to attribute
 * @param dumpInterval how often samples are collected and joined to spans; a span's profile is complete at most
 * about this long after it ends
 * @param aggregate bounds of the per-span-name profiles and latency statistics
 */
public record SpanProfilerSettings(SamplerSettings sampler, StoreSettings store, Duration dumpInterval,
		AggregateSettings aggregate) {

	public SpanProfilerSettings {
		if (dumpInterval.toMillis() < 10) {
			throw new IllegalArgumentException("dumpInterval must be at least 10ms, was " + dumpInterval);
		}
	}

	/** With the default span-name aggregates. */
	public SpanProfilerSettings(SamplerSettings sampler, StoreSettings store, Duration dumpInterval) {
		this(sampler, store, dumpInterval, AggregateSettings.defaults());
	}

	public static SpanProfilerSettings defaults() {
		return new SpanProfilerSettings(SamplerSettings.defaults(), StoreSettings.defaults(), Duration.ofSeconds(1));
	}

}
