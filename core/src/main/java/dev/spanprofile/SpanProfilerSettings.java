package dev.spanprofile;

import java.time.Duration;

import dev.spanprofile.aggregate.AggregateSettings;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.slowlog.SlowSpanLogSettings;
import dev.spanprofile.store.StoreSettings;

/**
 * Everything the engine needs to know.
 *
 * @param sampler what and how often to sample
 * @param store how much to keep and how to attribute
 * @param dumpInterval how often samples are collected and joined to spans; a span's
 * profile is complete at most about this long after it ends
 * @param slowSpanLog which requests get a log line once their profile is complete
 * @param aggregate bounds of the per-span-name profiles and latency statistics
 */
public record SpanProfilerSettings(SamplerSettings sampler, StoreSettings store, Duration dumpInterval,
		SlowSpanLogSettings slowSpanLog, AggregateSettings aggregate) {

	/** Settings without slow-request log lines, with the default span-name aggregates. */
	public SpanProfilerSettings(SamplerSettings sampler, StoreSettings store, Duration dumpInterval) {
		this(sampler, store, dumpInterval, SlowSpanLogSettings.off(), AggregateSettings.defaults());
	}

	/** With the default span-name aggregates. */
	public SpanProfilerSettings(SamplerSettings sampler, StoreSettings store, Duration dumpInterval,
			SlowSpanLogSettings slowSpanLog) {
		this(sampler, store, dumpInterval, slowSpanLog, AggregateSettings.defaults());
	}

	/** Without slow-request log lines. */
	public SpanProfilerSettings(SamplerSettings sampler, StoreSettings store, Duration dumpInterval,
			AggregateSettings aggregate) {
		this(sampler, store, dumpInterval, SlowSpanLogSettings.off(), aggregate);
	}

	public SpanProfilerSettings {
		if (dumpInterval.toMillis() < 10) {
			throw new IllegalArgumentException("dumpInterval must be at least 10ms, was " + dumpInterval);
		}
		if (slowSpanLog == null) {
			throw new IllegalArgumentException("slowSpanLog must not be null, use SlowSpanLogSettings.off()");
		}
	}

	/** These settings, sampling as {@code sampler} says. */
	public SpanProfilerSettings withSampler(SamplerSettings sampler) {
		return new SpanProfilerSettings(sampler, this.store, this.dumpInterval, this.slowSpanLog, this.aggregate);
	}

	public static SpanProfilerSettings defaults() {
		return new SpanProfilerSettings(SamplerSettings.defaults(), StoreSettings.defaults(), Duration.ofSeconds(1));
	}

}
