package dev.spanprofile.autoconfigure.health;

import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerUnavailableException;
import dev.spanprofile.sampling.SamplingEngine;

/**
 * An engine that cannot run here, as async-profiler on a platform without its library.
 */
class UnavailableEngine implements SamplingEngine {

	static final String REASON = "no native library for this platform";

	@Override
	public String name() {
		return "async-profiler";
	}

	@Override
	public void start() throws SamplerUnavailableException {
		throw new SamplerUnavailableException(REASON);
	}

	@Override
	public long collect(SampleSink sink) {
		return 0;
	}

	@Override
	public String activeEvent() {
		return "cpu";
	}

	@Override
	public void close() {
	}

}
