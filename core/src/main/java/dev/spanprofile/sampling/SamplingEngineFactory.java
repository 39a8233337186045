package dev.spanprofile.sampling;

import dev.spanprofile.profile.FrameTable;

/**
 * Creates the sampling engine for a profiler. Lets an integration (such as the Pyroscope
 * export) supply the one engine that may run in the JVM instead of the configured
 * {@link EngineChoice}.
 */
@FunctionalInterface
public interface SamplingEngineFactory {

	SamplingEngine create(SamplerSettings settings, FrameTable frames);

}
