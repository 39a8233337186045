package dev.spanprofile.autoconfigure;

import dev.spanprofile.sampling.EngineChoice;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.env.Environment;

/**
 * Refines {@code spanprofile.engine=auto} with what the application tells: async-profiler
 * attributes samples of virtual threads to their carrier threads, so an application
 * running requests on virtual threads is profiled with JDK Flight Recorder, which reports
 * the virtual thread itself.
 */
final class EngineSelection {

	private static final Log logger = LogFactory.getLog(EngineSelection.class);

	private EngineSelection() {
	}

	static EngineChoice choose(EngineChoice configured, Environment environment) {
		boolean virtualThreads = environment.getProperty("spring.threads.virtual.enabled", Boolean.class, false)
				&& Runtime.version().feature() >= 21;
		if (configured == EngineChoice.AUTO && virtualThreads) {
			logger.info("spanprofile: spring.threads.virtual.enabled=true, using JDK Flight Recorder: async-profiler "
					+ "would attribute virtual threads' samples to their carrier threads");
			return EngineChoice.JFR;
		}
		if (configured == EngineChoice.ASYNC_PROFILER && virtualThreads) {
			logger.warn("spanprofile: spanprofile.engine=async-profiler with virtual threads: spans running on virtual "
					+ "threads will get no samples (async-profiler sees only carrier threads); use spanprofile.engine=jfr");
		}
		return configured;
	}

}
