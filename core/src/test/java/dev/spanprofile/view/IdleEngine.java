package dev.spanprofile.view;

import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplingEngine;

/**
 * An engine that takes no samples: the views' tests put known samples into the store
 * themselves.
 */
final class IdleEngine implements SamplingEngine {

	@Override
	public String name() {
		return "idle";
	}

	@Override
	public void start() {
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
