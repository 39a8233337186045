package dev.spanprofile.sampling;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;

import dev.spanprofile.profile.SampleKind;

/**
 * How to sample.
 *
 * @param events what triggers samples: at most one of cpu, itimer and ctimer, optionally
 * with wall, alloc and lock
 * @param interval time between samples of one thread (CPU time for cpu/itimer/ctimer,
 * elapsed time for wall)
 * @param workDirectory where the engine keeps its rolling recording file
 * @param nativeLibraryDirectory where to extract the native profiler library, or
 * {@code null} for the temp directory
 * @param nativeLibraryPath an already extracted native library to load instead, or
 * {@code null}
 * @param allocInterval bytes allocated between two allocation samples (alloc event)
 * @param lockThreshold lock event: zero records every contended wait; above zero
 * async-profiler samples waits by their added-up length (a wait each time the total
 * crosses another multiple), the JDK drops shorter waits
 * @param waitThreshold waits (socket and file I/O, monitors, parks, sleeps, GC pauses) at
 * least this long are recorded with their exact duration as {@link SampleKind#WAIT}
 * samples, whatever the events; {@code null} records none
 * @param socketWaits socket reads and writes: a threshold of their own (the lower of it
 * and {@code waitThreshold} applies) and the names of peers
 */
public record SamplerSettings(Set<ProfilingEvent> events, Duration interval, Path workDirectory,
		Path nativeLibraryDirectory, Path nativeLibraryPath, long allocInterval, Duration lockThreshold,
		Duration waitThreshold, SocketWaits socketWaits) {

	/**
	 * async-profiler's own default for {@code alloc}: one sample per 512 KiB allocated.
	 */
	public static final long DEFAULT_ALLOC_INTERVAL = 512 * 1024;

	/**
	 * async-profiler's own default for {@code lock}: every contended wait, however short.
	 */
	public static final Duration DEFAULT_LOCK_THRESHOLD = Duration.ZERO;

	public SamplerSettings {
		if (events == null || events.isEmpty()) {
			throw new IllegalArgumentException("At least one profiling event is needed");
		}
		events = Set.copyOf(EnumSet.copyOf(events));
		long cpuLike = events.stream().filter((event) -> event.timed() && event != ProfilingEvent.WALL).count();
		if (cpuLike > 1) {
			throw new IllegalArgumentException("At most one of cpu, itimer and ctimer can be sampled at a time, got "
					+ events + "; combine one of them with wall, e.g. cpu,wall");
		}
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("interval must be positive, was " + interval);
		}
		if (allocInterval <= 0) {
			throw new IllegalArgumentException(
					"alloc-interval must be a positive number of bytes, was " + allocInterval);
		}
		if (lockThreshold == null || lockThreshold.isNegative()) {
			throw new IllegalArgumentException("lock-threshold must not be negative, was " + lockThreshold);
		}
		if (waitThreshold != null && waitThreshold.isNegative()) {
			throw new IllegalArgumentException("waits.threshold must not be negative, was " + waitThreshold);
		}
		if (socketWaits == null) {
			socketWaits = SocketWaits.defaults();
		}
	}

	/** Socket waits at {@link SocketWaits#DEFAULT_THRESHOLD}, no peer named. */
	public SamplerSettings(Set<ProfilingEvent> events, Duration interval, Path workDirectory,
			Path nativeLibraryDirectory, Path nativeLibraryPath, long allocInterval, Duration lockThreshold,
			Duration waitThreshold) {
		this(events, interval, workDirectory, nativeLibraryDirectory, nativeLibraryPath, allocInterval, lockThreshold,
				waitThreshold, null);
	}

	/** Settings that record no waits beside the events. */
	public SamplerSettings(Set<ProfilingEvent> events, Duration interval, Path workDirectory,
			Path nativeLibraryDirectory, Path nativeLibraryPath, long allocInterval, Duration lockThreshold) {
		this(events, interval, workDirectory, nativeLibraryDirectory, nativeLibraryPath, allocInterval, lockThreshold,
				null);
	}

	/**
	 * These settings, recording waits of at least {@code threshold} ({@code null}: none).
	 */
	public SamplerSettings withWaitThreshold(Duration threshold) {
		return new SamplerSettings(this.events, this.interval, this.workDirectory, this.nativeLibraryDirectory,
				this.nativeLibraryPath, this.allocInterval, this.lockThreshold, threshold, this.socketWaits);
	}

	/**
	 * The shortest socket wait recorded: the lower of the socket threshold and the waits'
	 * threshold; {@code null} when waits are not recorded.
	 */
	public Duration socketWaitThreshold() {
		if (this.waitThreshold == null) {
			return null;
		}
		return (this.socketWaits.threshold().compareTo(this.waitThreshold) < 0) ? this.socketWaits.threshold()
				: this.waitThreshold;
	}

	/** Whether waits are recorded beside the events. */
	public boolean waits() {
		return this.waitThreshold != null;
	}

	/** Settings with async-profiler's defaults for allocation and lock sampling. */
	public SamplerSettings(Set<ProfilingEvent> events, Duration interval, Path workDirectory,
			Path nativeLibraryDirectory, Path nativeLibraryPath) {
		this(events, interval, workDirectory, nativeLibraryDirectory, nativeLibraryPath, DEFAULT_ALLOC_INTERVAL,
				DEFAULT_LOCK_THRESHOLD);
	}

	/** Settings for one event. */
	public SamplerSettings(ProfilingEvent event, Duration interval, Path workDirectory, Path nativeLibraryDirectory,
			Path nativeLibraryPath) {
		this(Set.of(event), interval, workDirectory, nativeLibraryDirectory, nativeLibraryPath);
	}

	/**
	 * The engine's own defaults: {@code cpu}, whose sample count follows CPU time most
	 * closely, every 10 ms. The Spring Boot starter chooses {@code ctimer} instead, for
	 * its cost (see its {@code spanprofile.event}).
	 */
	public static SamplerSettings defaults() {
		return new SamplerSettings(ProfilingEvent.CPU, Duration.ofMillis(10),
				Path.of(System.getProperty("java.io.tmpdir")), null, null);
	}

	/**
	 * The CPU-time event (cpu, itimer or ctimer), or {@code null} when none is sampled.
	 */
	public ProfilingEvent cpuEvent() {
		for (ProfilingEvent event : this.events) {
			if (event.timed() && event != ProfilingEvent.WALL) {
				return event;
			}
		}
		return null;
	}

	public boolean wall() {
		return this.events.contains(ProfilingEvent.WALL);
	}

	/** The kinds of samples this configuration produces. */
	public Set<SampleKind> kinds() {
		Set<SampleKind> kinds = EnumSet.noneOf(SampleKind.class);
		if (cpuEvent() != null) {
			kinds.add(SampleKind.CPU);
		}
		if (wall()) {
			kinds.add(SampleKind.WALL);
		}
		if (alloc()) {
			kinds.add(SampleKind.ALLOC);
		}
		if (lock()) {
			kinds.add(SampleKind.LOCK);
		}
		if (waits()) {
			kinds.add(SampleKind.WAIT);
		}
		return kinds;
	}

	public boolean alloc() {
		return this.events.contains(ProfilingEvent.ALLOC);
	}

	public boolean lock() {
		return this.events.contains(ProfilingEvent.LOCK);
	}

	/**
	 * The kind shown when a request does not say which: the first sampled of cpu, wall,
	 * alloc and lock.
	 */
	public SampleKind primaryKind() {
		return kinds().iterator().next();
	}

	/** Events as users write them, e.g. {@code cpu,wall}. */
	public String eventsDescription() {
		StringBuilder description = new StringBuilder();
		for (ProfilingEvent event : EnumSet.copyOf(this.events)) {
			description.append((description.length() > 0) ? "," : "").append(event.id());
		}
		return description.toString();
	}

	/**
	 * Events as the profiler runs them on the given operating system: ctimer is itimer
	 * outside Linux.
	 */
	public String eventsDescriptionOn(String osName) {
		ProfilingEvent cpu = cpuEvent();
		String described = eventsDescription();
		return (cpu != null) ? described.replace(cpu.id(), cpu.onPlatform(osName).id()) : described;
	}

	/** Parse {@code cpu,wall}-style lists. */
	public static Set<ProfilingEvent> parseEvents(Collection<String> names) {
		Set<ProfilingEvent> events = EnumSet.noneOf(ProfilingEvent.class);
		for (String name : names) {
			events.add(ProfilingEvent.of(name));
		}
		return events;
	}

}
