package dev.spanprofile.sampling;

import java.util.Locale;

import dev.spanprofile.profile.FrameTable;

/**
 * Which sampling engine to use.
 */
public enum EngineChoice {

	/**
	 * async-profiler where it loads and no other native profiler runs; JDK Flight
	 * Recorder otherwise.
	 */
	AUTO,

	/**
	 * async-profiler only: when it cannot run, there are no profiles (the endpoint says
	 * why).
	 */
	ASYNC_PROFILER,

	/** JDK Flight Recorder only: no native code; right for virtual threads. */
	JFR;

	/** The engine for these settings, with the waits they ask for beside it. */
	public SamplingEngine create(SamplerSettings settings, FrameTable frames) {
		return EngineWithWaits.around(sampler(settings, frames), settings, frames);
	}

	private SamplingEngine sampler(SamplerSettings settings, FrameTable frames) {
		return switch (this) {
			case AUTO -> new FallbackSamplingEngine(new AsyncProfilerEngine(settings, frames),
					new JfrStreamingEngine(settings, frames));
			case ASYNC_PROFILER -> new AsyncProfilerEngine(settings, frames);
			case JFR -> new JfrStreamingEngine(settings, frames);
		};
	}

	public String id() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
