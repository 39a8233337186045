package dev.spanprofile.autoconfigure.ondemand;

import java.util.List;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

/**
 * The application's OpenTelemetry sampler, but for the span of a request that asked for
 * its profile ({@link ForcedSampling}): that one is recorded and sampled whatever the
 * sampler (and a remote parent's decision) would have said.
 */
final class ForcingSampler implements Sampler {

	private final Sampler delegate;

	ForcingSampler(Sampler delegate) {
		this.delegate = delegate;
	}

	@Override
	public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind,
			Attributes attributes, List<LinkData> parentLinks) {
		if (ForcedSampling.take()) {
			return SamplingResult.recordAndSample();
		}
		return this.delegate.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
	}

	@Override
	public String getDescription() {
		return "SpanProfileForcing{" + this.delegate.getDescription() + "}";
	}

}
