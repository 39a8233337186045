package dev.spanprofile.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;
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
	 * Time between two samples of one thread: CPU time for the cpu, itimer and ctimer
	 * events, elapsed time for wall. Shorter gives short spans more samples at a higher
	 * cost: 10ms doubles each span's samples and, side by side, cost the benchmark's page
	 * application about 2 % more CPU per request than the default.
	 */
	private Duration interval = Duration.ofMillis(20);

	/**
	 * What triggers samples: ctimer (per-thread CPU timers, no kernel permission needed,
	 * a quarter of cpu's cost per sample on virtual machines; about 5 % fewer samples
	 * than CPU time when threads outnumber cores, while a request's CPU time itself is
	 * read from its threads' CPU clocks; itimer on macOS, which has none), cpu
	 * (perf_events, falling back to ctimer where the kernel forbids them), itimer, or
	 * wall (running and waiting threads alike, only threads inside a span). "ctimer,wall"
	 * keeps both flame graphs for every span. alloc (heap allocations, weighted by bytes)
	 * and lock (contended locks, weighted by the time waited) add graphs of their own,
	 * e.g. "ctimer,alloc,lock".
	 */
	private List<ProfilingEvent> event = new ArrayList<>(List.of(ProfilingEvent.CTIMER));

	/**
	 * Bytes allocated between two allocation samples when the alloc event is sampled.
	 * Smaller catches smaller allocations at a higher cost.
	 */
	private DataSize allocInterval = DataSize.ofBytes(SamplerSettings.DEFAULT_ALLOC_INTERVAL);

	/**
	 * Lock event: zero records every contended wait. Above zero, async-profiler (and the
	 * Pyroscope agent) record a wait each time the waits add up to another multiple of
	 * this, weighted as at least this long; the jfr engine leaves out waits shorter than
	 * this.
	 */
	private Duration lockThreshold = SamplerSettings.DEFAULT_LOCK_THRESHOLD;

	/**
	 * Sampling engine: auto (async-profiler where it loads, JDK Flight Recorder
	 * otherwise, and Flight Recorder when spring.threads.virtual.enabled is true),
	 * async-profiler, or jfr.
	 */
	private EngineChoice engine = EngineChoice.AUTO;

	/**
	 * Whether samples go to the local root span (the request's entry point in this
	 * process) rather than to the innermost span active when they were taken. Only root
	 * spans are then listed; asking for a child span serves its root's profile.
	 */
	private boolean rootSpanOnly = true;

	/**
	 * Maximum number of spans kept. Beyond it the oldest finished requests are dropped,
	 * each with all its spans.
	 */
	private int maxSpans = 1000;

	/**
	 * Approximate heap that profiles may use: half for stored spans, frame names included
	 * (those at most a quarter of that half; beyond it the oldest finished requests are
	 * dropped), half for the span-name aggregates (beyond it the oldest minutes lose
	 * their stacks, keeping their statistics).
	 */
	private DataSize maxMemory = DataSize.ofMegabytes(64);

	/**
	 * How often samples are collected and joined to spans. A finished span's profile is
	 * complete about this long after it ends, and at once when the endpoint is read (a
	 * read collects first). Each collection has a cost of its own (async-profiler names
	 * every method its stacks use again), which a longer interval spreads over more
	 * requests.
	 */
	private Duration dumpInterval = Duration.ofSeconds(3);

	/**
	 * Whether requests to the actuator endpoints themselves are profiled. Off by default:
	 * they would crowd the list.
	 */
	private boolean profileActuatorRequests = false;

	/**
	 * Whether requests that tracing did not sample (nine in ten at Spring Boot's default
	 * sampling probability of 0.1) count in the span-name statistics and profiles, under
	 * the name their span would have had (in the profiles, at most
	 * profiled-unsampled-requests-per-second of them). They are never stored as spans.
	 */
	private boolean profileUnsampledRequests = true;

	/**
	 * Of the requests that tracing did not sample, how many a second at most have their
	 * samples folded into their name's profiles (up to a second's worth at once); all of
	 * them count in the latency statistics. 0 counts their latency only. Profiling one
	 * costs its threads two change points and the collector a place for its samples until
	 * they are folded, which on a busy service is most of what the unsampled requests
	 * cost; a quiet service's requests are all profiled. Shared by every name and chosen
	 * as a request starts, before its name is known: beside a name busier than this, a
	 * quiet name's untraced requests are seldom profiled (its traced ones always are).
	 */
	private int profiledUnsampledRequestsPerSecond = 50;

	/**
	 * Whether a request's CPU time is read from its threads' CPU clocks where they enter
	 * and leave it, exact whatever the event, instead of counted from samples (which with
	 * ctimer come up about 5 % short when threads outnumber cores). On Linux the kernel's
	 * per-thread scheduler statistics are read with them, so that the breakdown also
	 * measures the time waiting for a core and the short waits. Off by default: every
	 * read is a system call, and on a machine whose cores are all busy it made requests
	 * of the benchmark application cost 9 % more CPU.
	 */
	private boolean exactCpuTime = false;

	/**
	 * Whether a request's time waiting for a core (runnable but not running: a busy
	 * machine, a container held by its CPU limit) is measured: on Linux the kernel's
	 * per-thread figure is read where the request's threads enter and leave it, so that
	 * its breakdown, its name's and its slow-request line state that time rather than
	 * leave it unaccounted, with the CPU time counted from samples. One system call at
	 * each entry and exit and one open file per platform thread that served a request.
	 * With exact-cpu-time it is read whatever this says. Where the figure cannot be read
	 * (not Linux, a restricted /proc) one INFO line says so.
	 */
	private boolean coreWait = true;

	/**
	 * Whether work handed to another thread (@Async methods, scheduled tasks, Reactor's
	 * subscribeOn, publishOn and timers) is profiled in its request's span without the
	 * application asking: turns on spring.task.execution.propagate-context (on Boot 3.5
	 * and 4.0, which lack it, adds a ContextPropagatingTaskDecorator unless the
	 * application has a TaskDecorator bean) and, in a reactive application,
	 * spring.reactor.context-propagation=auto. These are defaults: the application's own
	 * values of those properties win, and where it turned them off a warning at startup
	 * says what its graphs miss. False leaves them all to the application.
	 */
	private boolean propagateContext = true;

	/**
	 * Directory where the rolling recording file is kept. Defaults to a "spanprofile"
	 * folder in the system temp directory.
	 */
	private Path workDirectory;

	/**
	 * Directory to extract the native profiler library into, for systems whose temp
	 * directory is mounted noexec.
	 */
	private Path nativeLibraryDirectory;

	/**
	 * An already extracted native profiler library to load instead of the bundled one.
	 */
	private Path nativeLibraryPath;

	private final Retention retention = new Retention();

	private final SlowSpanLog slowSpanLog = new SlowSpanLog();

	private final Link link = new Link();

	private final Aggregate aggregate = new Aggregate();

	private final Waits waits = new Waits();

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

	public DataSize getAllocInterval() {
		return this.allocInterval;
	}

	public void setAllocInterval(DataSize allocInterval) {
		this.allocInterval = allocInterval;
	}

	public Duration getLockThreshold() {
		return this.lockThreshold;
	}

	public void setLockThreshold(Duration lockThreshold) {
		this.lockThreshold = lockThreshold;
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

	public boolean isPropagateContext() {
		return this.propagateContext;
	}

	public void setPropagateContext(boolean propagateContext) {
		this.propagateContext = propagateContext;
	}

	public boolean isExactCpuTime() {
		return this.exactCpuTime;
	}

	public void setExactCpuTime(boolean exactCpuTime) {
		this.exactCpuTime = exactCpuTime;
	}

	public boolean isCoreWait() {
		return this.coreWait;
	}

	public void setCoreWait(boolean coreWait) {
		this.coreWait = coreWait;
	}

	public boolean isProfileUnsampledRequests() {
		return this.profileUnsampledRequests;
	}

	public void setProfileUnsampledRequests(boolean profileUnsampledRequests) {
		this.profileUnsampledRequests = profileUnsampledRequests;
	}

	public int getProfiledUnsampledRequestsPerSecond() {
		return this.profiledUnsampledRequestsPerSecond;
	}

	public void setProfiledUnsampledRequestsPerSecond(int profiledUnsampledRequestsPerSecond) {
		this.profiledUnsampledRequestsPerSecond = profiledUnsampledRequestsPerSecond;
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

	public Retention getRetention() {
		return this.retention;
	}

	public SlowSpanLog getSlowSpanLog() {
		return this.slowSpanLog;
	}

	public Link getLink() {
		return this.link;
	}

	public Aggregate getAggregate() {
		return this.aggregate;
	}

	public Waits getWaits() {
		return this.waits;
	}

	/**
	 * Requests kept beyond the most recent ones, so that a slow or failed request is
	 * still there when someone comes looking for it. They share max-spans and the stored
	 * spans' half of max-memory with the recent requests, using at most half of each.
	 */
	public static class Retention {

		/**
		 * How many of the slowest requests to keep per span name of the request's entry
		 * span. 0 keeps none.
		 */
		private int slowestPerName = 5;

		/**
		 * How long a request stays kept as slow or failed. After it, it is an ordinary
		 * old request, the first to be dropped.
		 */
		private Duration window = Duration.ofHours(1);

		/**
		 * Span names tracked separately. Requests of further names share the slots of one
		 * name, "other".
		 */
		private int maxNames = 100;

		/**
		 * Failed requests kept in all: the latest one per span name and minute, the
		 * oldest dropped first. 0 keeps none.
		 */
		private int maxErrorSpans = 60;

		public int getSlowestPerName() {
			return this.slowestPerName;
		}

		public void setSlowestPerName(int slowestPerName) {
			this.slowestPerName = slowestPerName;
		}

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

		public int getMaxErrorSpans() {
			return this.maxErrorSpans;
		}

		public void setMaxErrorSpans(int maxErrorSpans) {
			this.maxErrorSpans = maxErrorSpans;
		}

	}

	/**
	 * Where requests wait: socket and file I/O (a database's answer, a downstream call),
	 * monitors, parks (locks, a pool with no free connection), sleeps. Each wait is
	 * recorded from the JDK's own events with its exact duration and stack, whatever the
	 * sampling event, as the "wait" graph of its request.
	 */
	public static class Waits {

		/**
		 * Whether waits are recorded beside the sampled events.
		 */
		private boolean enabled = true;

		/**
		 * Shortest wait recorded, as in the JDK's own profile for continuous recording.
		 * Shorter waits cost two clock reads each and are counted in a request's time as
		 * unaccounted for; each recorded wait costs a stack walk, and a server's idle
		 * workers wait between requests too.
		 */
		private Duration threshold = Duration.ofMillis(20);

		/**
		 * Shortest socket read or write recorded (the lower of this and threshold
		 * applies), so that a request's round trips to its database or a downstream
		 * service count however short: each recorded socket read is one round trip. Each
		 * recorded wait costs some 10-30 microseconds of CPU (stack walk, writing and
		 * parsing the event): at 1 ms, about 1-3 % of the time it records; 0 records
		 * every socket read and write, a non-blocking server's own included.
		 */
		private Duration socketThreshold = Duration.ofMillis(1);

		public boolean isEnabled() {
			return this.enabled;
		}

		public Duration getSocketThreshold() {
			return this.socketThreshold;
		}

		public void setSocketThreshold(Duration socketThreshold) {
			this.socketThreshold = socketThreshold;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getThreshold() {
			return this.threshold;
		}

		public void setThreshold(Duration threshold) {
			this.threshold = threshold;
		}

	}

	/**
	 * One log line per slow request, where people already look.
	 */
	public static class SlowSpanLog {

		/**
		 * Requests (local root spans) taking longer than this get one INFO line, once
		 * their profile is complete (about a second after they end, whatever the dump
		 * interval): duration, CPU time, hottest methods and the path of the flame graph.
		 * Not set: no line.
		 */
		private Duration threshold;

		/**
		 * Most lines written per minute; further slow requests are counted and mentioned
		 * in the next line.
		 */
		private int maxPerMinute = 10;

		public Duration getThreshold() {
			return this.threshold;
		}

		public void setThreshold(Duration threshold) {
			this.threshold = threshold;
		}

		public int getMaxPerMinute() {
			return this.maxPerMinute;
		}

		public void setMaxPerMinute(int maxPerMinute) {
			this.maxPerMinute = maxPerMinute;
		}

	}

	/**
	 * A link from every request's span to its flame graph, shown by trace viewers.
	 */
	public static class Link {

		/**
		 * Address of this application's spanprofile endpoint as a trace viewer's user
		 * reaches it, for example "http://orders-7f9c:8080/actuator/spanprofile". When
		 * set, local root spans get the attribute "spanprofile.url", this address
		 * followed by "/" and the span id.
		 */
		private String baseUrl;

		public String getBaseUrl() {
			return this.baseUrl;
		}

		public void setBaseUrl(String baseUrl) {
			this.baseUrl = baseUrl;
		}

	}

	/**
	 * Profiles and latency statistics per local-root span name, over a sliding window,
	 * independent of which spans are still stored.
	 */
	public static class Aggregate {

		/**
		 * How long per-name statistics and profiles are kept. Kept in one-minute buckets
		 * (longer windows: a sixtieth of the window each).
		 */
		private Duration window = Duration.ofHours(1);

		/**
		 * Span names tracked; spans of later names are aggregated under "other".
		 */
		private int maxNames = 50;

		/**
		 * Distinct stacks kept per name and bucket; beyond it the thinnest are folded
		 * into a "[trimmed]" frame under their caller.
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
