package dev.spanprofile.autoconfigure.startup;

import dev.spanprofile.startup.StartupSettings;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Profiling of the application's start ({@code spanprofile.startup.*}), read when the
 * environment is ready, before any bean exists.
 */
@ConfigurationProperties("spanprofile.startup")
public class SpanProfileStartupProperties {

	/**
	 * Whether to start profiling before the application context refreshes and record
	 * every startup step with its own samples at /actuator/spanprofile/startup.
	 */
	private boolean enabled = true;

	/**
	 * Steps recorded at most; further steps are left to the step they ran in, whose own
	 * time then includes them.
	 */
	private int maxSteps = 10_000;

	/**
	 * Steps whose flame graphs are kept once the application is ready: those with the
	 * most own time.
	 */
	private int maxGraphs = 100;

	/**
	 * Heap for the start's graphs while the application starts; beyond it, samples are
	 * counted, not kept.
	 */
	private DataSize maxMemory = DataSize.ofMegabytes(16);

	/**
	 * Whether waits (spanprofile.waits.*) are recorded during the start too, so that
	 * startup steps have their waits (a migration waiting on its database, a pool
	 * filling). Off by default: the JDK's Flight Recorder, which records them, is the
	 * largest part of what profiling costs a start (about half of it); the waits are
	 * recorded from when the application is ready. Turn it on to see where a slow start
	 * waits.
	 */
	private boolean waits;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxSteps() {
		return this.maxSteps;
	}

	public void setMaxSteps(int maxSteps) {
		this.maxSteps = maxSteps;
	}

	public int getMaxGraphs() {
		return this.maxGraphs;
	}

	public void setMaxGraphs(int maxGraphs) {
		this.maxGraphs = maxGraphs;
	}

	public DataSize getMaxMemory() {
		return this.maxMemory;
	}

	public void setMaxMemory(DataSize maxMemory) {
		this.maxMemory = maxMemory;
	}

	public boolean isWaits() {
		return this.waits;
	}

	public void setWaits(boolean waits) {
		this.waits = waits;
	}

	public StartupSettings settings() {
		return new StartupSettings(this.maxSteps, this.maxGraphs, this.maxMemory.toBytes());
	}

}
