package dev.spanprofile.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of span profiling.
 */
@ConfigurationProperties("spanprofile")
public class SpanProfileProperties {

	/**
	 * Whether to profile spans. When false no profiler is loaded and no bean is created.
	 */
	private boolean enabled = true;

	/**
	 * Time between two samples of one thread: CPU time for the cpu, itimer and ctimer events, elapsed time for
	 * wall. Shorter gives short spans more samples at a higher cost.
	 */
	private Duration interval = Duration.ofMillis(10);

	/**
	 * What triggers samples: cpu (perf_events, falling back to ctimer where the kernel forbids them), itimer,
	 * ctimer, or wall (running and waiting threads alike, only threads inside a span). "cpu,wall" keeps both
	 * flame graphs for every span.
	 */
	private List<ProfilingEvent> event = new ArrayList<>(List.of(ProfilingEvent.CPU));

	/**
	 * Sampling engine: auto (async-profiler where it loads, JDK Flight Recorder otherwise, and Flight Recorder
	 * when spring.threads.virtual.enabled is true), async-profiler, or jfr.
	 */
	private EngineChoice engine = EngineChoice.AUTO;

	/**
	 * Whether samples go to the local root span (the request's entry point in this process) rather than to the
	 * innermost span active when they were taken. Only root spans are then listed; asking for a child span serves
	 * its root's profile.
	 */
	private boolean rootSpanOnly = true;

	/**
	 * Maximum number of spans kept. Beyond it the oldest finished requests are dropped, each with all its spans.
	 */
	private int maxSpans = 1000;

	/**
	 * Approximate heap that profiles may use: half for stored spans (beyond it the oldest finished requests are
	 * dropped), half for the span-name aggregates (beyond it the oldest minutes lose their stacks, keeping their
	 * statistics).
	 */
	private DataSize maxMemory = DataSize.ofMegabytes(64);

	/**
	 * How often samples are collected and joined to spans. A finished span's profile is complete about this long
	 * after it ends.
	 */
	private Duration dumpInterval = Duration.ofSeconds(1);

	/**
	 * Whether requests to the actuator endpoints themselves are profiled. Off by default: they would crowd the
	 * list.
	 */
	private boolean profileActuatorRequests = false;

	/**
	 * Directory where the rolling recording file is kept. Defaults to a "spanprofile" folder in the system temp
	 * directory.
	 */
	private Path workDirectory;

	/**
	 * Directory to extract the native profiler library into, for systems whose temp directory is mounted noexec.
	 */
	private Path nativeLibraryDirectory;

	/**
	 * An already extracted native profiler library to load instead of the bundled one.
	 */
	private Path nativeLibraryPath;

	private final Aggregate aggregate = new Aggregate();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Duration getInterval() {
		return this.interval;
	}

	public void setInterval(Duration interval) {
		this.interval = interval;
	}

	public List<ProfilingEvent> getEvent() {
		return this.event;
	}

	public void setEvent(List<ProfilingEvent> event) {
		this.event = event;
	}

	public EngineChoice getEngine() {
		return this.engine;
	}

	public void setEngine(EngineChoice engine) {
		this.engine = engine;
	}

	public boolean isRootSpanOnly() {
		return this.rootSpanOnly;
	}

	public void setRootSpanOnly(boolean rootSpanOnly) {
		this.rootSpanOnly = rootSpanOnly;
	}

	public int getMaxSpans() {
		return this.maxSpans;
	}

	public void setMaxSpans(int maxSpans) {
		this.maxSpans = maxSpans;
	}

	public DataSize getMaxMemory() {
		return this.maxMemory;
	}

	public void setMaxMemory(DataSize maxMemory) {
		this.maxMemory = maxMemory;
	}

	public Duration getDumpInterval() {
		return this.dumpInterval;
	}

	public void setDumpInterval(Duration dumpInterval) {
		this.dumpInterval = dumpInterval;
	}

	public boolean isProfileActuatorRequests() {
		return this.profileActuatorRequests;
	}

	public void setProfileActuatorRequests(boolean profileActuatorRequests) {
		this.profileActuatorRequests = profileActuatorRequests;
	}

	public Path getWorkDirectory() {
		return this.workDirectory;
	}

	public void setWorkDirectory(Path workDirectory) {
		this.workDirectory = workDirectory;
	}

	public Path getNativeLibraryDirectory() {
		return this.nativeLibraryDirectory;
	}

	public void setNativeLibraryDirectory(Path nativeLibraryDirectory) {
		this.nativeLibraryDirectory = nativeLibraryDirectory;
	}

	public Path getNativeLibraryPath() {
		return this.nativeLibraryPath;
	}

	public void setNativeLibraryPath(Path nativeLibraryPath) {
		this.nativeLibraryPath = nativeLibraryPath;
	}

	public Aggregate getAggregate() {
		return this.aggregate;
	}

	/**
	 * Profiles and latency statistics per local-root span name, over a sliding window, independent of which spans
	 * are still stored.
	 */
	public static class Aggregate {

		/**
		 * How long per-name statistics and profiles are kept. Kept in one-minute buckets (longer windows: a
		 * sixtieth of the window each).
		 */
		private Duration window = Duration.ofHours(1);

		/**
		 * Span names tracked; spans of later names are aggregated under "other".
		 */
		private int maxNames = 50;

		/**
		 * Distinct stacks kept per name and bucket; beyond it the thinnest are folded into a "[trimmed]" frame
		 * under their caller.
		 */
		private int maxStacks = 2000;

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
		}

		public int getMaxNames() {
			return this.maxNames;
		}

		public void setMaxNames(int maxNames) {
			this.maxNames = maxNames;
		}

		public int getMaxStacks() {
			return this.maxStacks;
		}

		public void setMaxStacks(int maxStacks) {
			this.maxStacks = maxStacks;
		}

	}

}
