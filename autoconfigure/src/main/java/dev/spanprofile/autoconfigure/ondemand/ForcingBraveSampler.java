package dev.spanprofile.autoconfigure.ondemand;

import brave.sampler.Sampler;

/**
 * The application's Brave sampler, but for the span of a request that asked for its
 * profile ({@link ForcedSampling}), which is sampled. Brave asks its sampler only for
 * spans without a decision: a caller that sends {@code b3} headers saying "not sampled"
 * is not forced.
 */
final class ForcingBraveSampler extends Sampler {

	private final Sampler delegate;

	ForcingBraveSampler(Sampler delegate) {
		this.delegate = delegate;
	}

	@Override
	public boolean isSampled(long traceId) {
		return ForcedSampling.take() || this.delegate.isSampled(traceId);
	}

}
