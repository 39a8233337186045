package dev.spanprofile.pyroscope;

import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplerUnavailableException;
import io.pyroscope.http.Format;
import io.pyroscope.javaagent.EventType;
import io.pyroscope.javaagent.config.Config;
import io.pyroscope.javaagent.config.ProfilerType;

/**
 * spanprofile's settings in the Pyroscope agent's terms: its configuration, and the one
 * timer event it samples. Apart from the engine so that the engine reads as what it does
 * with the agent, not how the agent is spelled.
 */
final class AgentConfig {

	private AgentConfig() {
	}

	static Config config(PyroscopeSettings settings, SamplerSettings sampler, EventType event) {
		Config.Builder builder = new Config.Builder().setApplicationName(settings.applicationName())
			.setServerAddress(settings.serverAddress())
			.setProfilerType(ProfilerType.ASYNC)
			.setFormat(Format.JFR)
			.setProfilingEvent(event)
			.setProfilingInterval(sampler.interval())
			// async-profiler's units: bytes between allocation samples, nanoseconds of
			// the shortest lock wait.
			.setProfilingAlloc(sampler.alloc() ? Long.toString(sampler.allocInterval()) : "")
			.setProfilingLock(sampler.lock() ? Long.toString(sampler.lockThreshold().toNanos()) : "")
			.setUploadInterval(settings.uploadInterval())
			.setLabels(settings.labels())
			.setCompressionLevelJFR(settings.compressionLevel())
			.setCompressionLevelLabels(settings.compressionLevel())
			.setIngestMaxRetries(settings.maxTries())
			.setProfileExportTimeout(settings.exportTimeout())
			.setTmpDir(sampler.workDirectory().toString())
			// Sample times on the System.nanoTime() clock, as the activation timeline: no
			// conversion, no drift.
			.setAPExtraArguments("clock=monotonic");
		if (settings.tenantId() != null && !settings.tenantId().isBlank()) {
			builder.setTenantID(settings.tenantId());
		}
		if (settings.username() != null && settings.password() != null) {
			builder.setBasicAuthUser(settings.username()).setBasicAuthPassword(settings.password());
		}
		else if (settings.bearerToken() != null) {
			builder.setAuthToken(settings.bearerToken());
		}
		return builder.build();
	}

	/**
	 * The agent runs async-profiler with one timer event, to which it can add allocation
	 * and lock sampling ({@code start,event=E,alloc=..,lock=..}): one recording, one
	 * upload.
	 */
	static EventType eventType(SamplerSettings sampler) throws SamplerUnavailableException {
		ProfilingEvent cpu = sampler.cpuEvent();
		if (cpu != null && sampler.wall()) {
			throw new SamplerUnavailableException("the Pyroscope agent samples one timer event at a time, but "
					+ "spanprofile.event=" + sampler.eventsDescription()
					+ "; choose one of cpu, itimer, ctimer or wall " + "(alloc and lock can be added to it)");
		}
		if (cpu == null && !sampler.wall()) {
			throw new SamplerUnavailableException(
					"with the Pyroscope agent, alloc and lock are sampled alongside a timer "
							+ "event, but spanprofile.event=" + sampler.eventsDescription()
							+ " has none; add one of cpu, itimer, " + "ctimer or wall, e.g. spanprofile.event=cpu,"
							+ sampler.eventsDescription());
		}
		// The agent's bundled async-profiler has per-thread timers on Linux only, as ours
		// does.
		ProfilingEvent timer = (cpu != null) ? cpu.onPlatform(System.getProperty("os.name")) : ProfilingEvent.WALL;
		return switch (timer) {
			case CPU -> EventType.CPU;
			case ITIMER -> EventType.ITIMER;
			case CTIMER -> EventType.CTIMER;
			default -> EventType.WALL;
		};
	}

}
