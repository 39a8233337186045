package dev.spanprofile.view;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.sampling.ProfilingEvent;
import dev.spanprofile.sampling.SamplerSettings;

/**
 * What to sample from now on, as a person writes it in {@code POST /actuator/spanprofile}
 * ({@code {"event": "cpu,wall,alloc,lock", "interval": "20ms"}}): parsed against the
 * settings in force, every value checked before anything changes, so that a bad one is a
 * 400 naming what is allowed and leaves sampling as it was.
 *
 * @param event the events, as {@code spanprofile.event} takes them, or {@code null} to
 * keep them
 * @param interval the sampling interval ({@code 10ms}, {@code 1s}), or {@code null}
 * @param allocInterval bytes between allocation samples ({@code 512KB}, {@code 1MB},
 * {@code 65536}), or {@code null}
 * @param lockThreshold the lock event's threshold ({@code 0ms}, {@code 10ms}), or
 * {@code null}
 */
public record SamplingChange(String event, String interval, String allocInterval, String lockThreshold) {

	private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ns|us|ms|s)?");

	private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KB|MB)?");

	/** Whether anything is asked for at all. */
	public boolean isEmpty() {
		return this.event == null && this.interval == null && this.allocInterval == null && this.lockThreshold == null;
	}

	/**
	 * The settings to sample with: {@code current} with what this change sets.
	 * @throws ViewException (bad request) naming the value and what is allowed
	 */
	public SamplerSettings applyTo(SamplerSettings current) {
		Set<ProfilingEvent> events = (this.event != null) ? events(this.event) : current.events();
		Duration interval = (this.interval != null) ? duration("interval", this.interval) : current.interval();
		long allocInterval = (this.allocInterval != null) ? bytes(this.allocInterval) : current.allocInterval();
		Duration lockThreshold = (this.lockThreshold != null) ? duration("lockThreshold", this.lockThreshold)
				: current.lockThreshold();
		try {
			return new SamplerSettings(events, interval, current.workDirectory(), current.nativeLibraryDirectory(),
					current.nativeLibraryPath(), allocInterval, lockThreshold, current.waitThreshold(),
					current.socketWaits());
		}
		catch (IllegalArgumentException ex) {
			throw ViewException.badRequest(ex.getMessage());
		}
	}

	private static Set<ProfilingEvent> events(String value) {
		if (value.isBlank()) {
			throw ViewException.badRequest("event must name at least one of cpu, itimer, ctimer, wall, alloc, lock");
		}
		try {
			return SamplerSettings.parseEvents(List.of(value.split(",")));
		}
		catch (IllegalArgumentException ex) {
			throw ViewException.badRequest("event must be a list of cpu, itimer, ctimer, wall, alloc and lock, e.g. "
					+ "cpu,wall; was '" + Echo.of(value) + "'");
		}
	}

	private static Duration duration(String name, String value) {
		Matcher matcher = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
		if (!matcher.matches()) {
			throw ViewException
				.badRequest(name + " must be a duration such as 10ms or 1s, was '" + Echo.of(value) + "'");
		}
		long amount = Long.parseLong(matcher.group(1));
		String unit = (matcher.group(2) != null) ? matcher.group(2) : "ms";
		return switch (unit) {
			case "ns" -> Duration.ofNanos(amount);
			case "us" -> Duration.ofNanos(amount * 1000);
			case "s" -> Duration.ofSeconds(amount);
			default -> Duration.ofMillis(amount);
		};
	}

	private static long bytes(String value) {
		Matcher matcher = SIZE.matcher(value.trim().toUpperCase(Locale.ROOT));
		if (!matcher.matches()) {
			throw ViewException
				.badRequest("allocInterval must be a size such as 512KB or 1MB, was '" + Echo.of(value) + "'");
		}
		long amount = Long.parseLong(matcher.group(1));
		String unit = (matcher.group(2) != null) ? matcher.group(2) : "B";
		return switch (unit) {
			case "KB" -> amount * 1024;
			case "MB" -> amount * 1024 * 1024;
			default -> amount;
		};
	}

}
