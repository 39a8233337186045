package dev.spanprofile.autoconfigure.ondemand;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.actuate.CaptureControl;
import dev.spanprofile.view.Echo;

import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * Captures in progress: each forces the next so many requests that match its span name
 * ({@code http get /owners/{ownerId}}: the method and the route, matched against the
 * request's path as it starts, before its span) or its URL path pattern
 * ({@code /owners/**}, any method), until it has them or its time is up. At most
 * {@link #MAX_CAPTURES} at once. Unused, a request pays one volatile read.
 */
final class RequestCaptures implements CaptureControl {

	static final int MAX_CAPTURES = 10;

	/** A span name as Spring's server observations give it: {@code http get /route}. */
	private static final Pattern SPAN_NAME = Pattern.compile("http ([a-z]+) (/.*)");

	private final LongSupplier nanoClock;

	private final LongSupplier epochMillis;

	private final List<Capture> captures = new CopyOnWriteArrayList<>();

	/**
	 * @param nanoClock {@link System#nanoTime()} or a test's, for when captures end
	 * @param epochMillis the wall clock, for when a capture ends as listed
	 */
	RequestCaptures(LongSupplier nanoClock, LongSupplier epochMillis) {
		this.nanoClock = nanoClock;
		this.epochMillis = epochMillis;
	}

	/** Whether any capture runs; one volatile read. */
	boolean capturing() {
		return !this.captures.isEmpty();
	}

	/**
	 * Whether a request starting now, {@code method} {@code path} (within the
	 * application), is captured: counted against the first capture it matches.
	 * @return the name of the capture that took it, {@code null} for none
	 */
	String claim(String method, String path) {
		if (this.captures.isEmpty()) {
			return null;
		}
		long now = this.nanoClock.getAsLong();
		PathContainer container = null;
		for (Capture capture : this.captures) {
			if (capture.endsAtNanos - now <= 0) {
				this.captures.remove(capture);
				continue;
			}
			if (capture.method != null && !capture.method.equalsIgnoreCase(method)) {
				continue;
			}
			if (container == null) {
				container = PathContainer.parsePath(path);
			}
			if (capture.pattern.matches(container) && capture.take()) {
				if (capture.remaining.get() == 0) {
					this.captures.remove(capture);
				}
				return capture.name;
			}
		}
		return null;
	}

	@Override
	public synchronized Map<String, Object> start(String name, int count, Duration within) {
		Capture capture = parse(name, count, within);
		cancel(name);
		if (count == 0) {
			return capture.describe();
		}
		if (this.captures.size() >= MAX_CAPTURES) {
			throw new IllegalArgumentException("capture: at most " + MAX_CAPTURES
					+ " captures run at once; cancel one first (DELETE /actuator/spanprofile?name=…)");
		}
		this.captures.add(capture);
		return capture.describe();
	}

	@Override
	public synchronized int cancel(String name) {
		int before = this.captures.size();
		this.captures.removeIf((capture) -> name == null || capture.name.equals(name));
		return before - this.captures.size();
	}

	@Override
	public List<Map<String, Object>> active() {
		long now = this.nanoClock.getAsLong();
		List<Map<String, Object>> listed = new ArrayList<>();
		for (Capture capture : this.captures) {
			if (capture.endsAtNanos - now > 0 && capture.remaining.get() > 0) {
				Map<String, Object> described = capture.describe();
				described.put("secondsLeft", Duration.ofNanos(capture.endsAtNanos - now).toSeconds());
				listed.add(described);
			}
		}
		return listed;
	}

	private Capture parse(String name, int count, Duration within) {
		Matcher spanName = SPAN_NAME.matcher(name.toLowerCase(Locale.ROOT));
		String method = null;
		String pattern = name;
		if (spanName.matches()) {
			method = spanName.group(1).toUpperCase(Locale.ROOT);
			// The route as written: path variables keep their case.
			pattern = name.substring(name.indexOf('/'));
		}
		else if (!name.startsWith("/")) {
			throw new IllegalArgumentException("capture must be a span name such as 'http get /owners/{ownerId}' "
					+ "or a URL path pattern such as '/owners/**'");
		}
		try {
			PathPattern parsed = PathPatternParser.defaultInstance.parse(pattern);
			long now = this.nanoClock.getAsLong();
			return new Capture(name, method, parsed, count, now + within.toNanos(),
					Instant.ofEpochMilli(this.epochMillis.getAsLong()).plus(within));
		}
		catch (PatternParseException ex) {
			throw new IllegalArgumentException("capture is not a URL path pattern such as '/owners/{ownerId}': "
					+ Echo.of(ex.getMessage()) + " at character " + ex.getPosition());
		}
	}

	private static final class Capture {

		final String name;

		final String method;

		final PathPattern pattern;

		final int count;

		final AtomicInteger remaining;

		final long endsAtNanos;

		final Instant endsAt;

		Capture(String name, String method, PathPattern pattern, int count, long endsAtNanos, Instant endsAt) {
			this.name = name;
			this.method = method;
			this.pattern = pattern;
			this.count = count;
			this.remaining = new AtomicInteger(count);
			this.endsAtNanos = endsAtNanos;
			this.endsAt = endsAt;
		}

		boolean take() {
			return this.remaining.getAndUpdate((left) -> Math.max(0, left - 1)) > 0;
		}

		Map<String, Object> describe() {
			Map<String, Object> described = new LinkedHashMap<>();
			described.put("name", this.name);
			described.put("count", this.count);
			described.put("captured", this.count - this.remaining.get());
			described.put("endsAt", this.endsAt.toString());
			return described;
		}

	}

}
