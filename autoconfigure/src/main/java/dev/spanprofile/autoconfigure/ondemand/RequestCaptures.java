package dev.spanprofile.autoconfigure.ondemand;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * ({@code http get /owners/{ownerId}}: the method and the route) or its URL path pattern
 * ({@code /owners/**}, any method), until it has them or its time is up. At most
 * {@link #MAX_CAPTURES} at once. Unused, a request pays one volatile read.
 * <p>
 * A request is {@link #claim claimed} as it starts, before its span, when only its path
 * is known: the route's pattern matches {@code /owners/new} as well as {@code /owners/7}.
 * Once the application has chosen its handler, the claim is {@link Claim#settle settled}:
 * a request of another route gives its place back, so a capture of a name keeps requests
 * of that name only.
 */
final class RequestCaptures implements CaptureControl {

	static final int MAX_CAPTURES = 10;

	/** A span name as Spring's server observations give it: {@code http get /route}. */
	private static final Pattern SPAN_NAME = Pattern.compile("http ([a-z]+) (/.*)");

	/** A path variable's name, after its brace and capture-all star if any. */
	private static final Pattern VARIABLE_NAME = Pattern.compile("\\{(\\*?)[^:}]*");

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
	 * application), may be captured: it takes a place in the first capture it matches
	 * until its claim is {@link Claim#settle settled}.
	 * @return the claim, {@code null} when no capture takes the request
	 */
	Claim claim(String method, String path) {
		if (this.captures.isEmpty()) {
			return null;
		}
		long now = this.nanoClock.getAsLong();
		PathContainer container = null;
		for (Capture capture : this.captures) {
			if (capture.endsAtNanos - now <= 0 || capture.full()) {
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
				return new Claim(capture);
			}
		}
		return null;
	}

	/**
	 * A request a capture took as it started, counted once settled as kept.
	 */
	final class Claim {

		private final Capture capture;

		private final AtomicBoolean settled = new AtomicBoolean();

		private Claim(Capture capture) {
			this.capture = capture;
		}

		/** The capture's name as it was started. */
		String name() {
			return this.capture.name;
		}

		/**
		 * Whether a request the application handled with this route is one the capture
		 * asked for: any request for a URL path pattern's capture, one of this very route
		 * (path variables' names aside) for a span name's.
		 * @param route the handler's path pattern, {@code null} when none was chosen
		 */
		boolean matches(String route) {
			return this.capture.method == null
					|| (route != null && withoutVariableNames(route).equals(this.capture.route));
		}

		/**
		 * Counts the request when kept, else gives its place back; only the first call
		 * counts.
		 */
		void settle(boolean kept) {
			if (this.settled.compareAndSet(false, true) && this.capture.settle(kept)) {
				RequestCaptures.this.captures.remove(this.capture);
			}
		}

	}

	/** A route with its path variables unnamed: {@code /owners/{}}. */
	private static String withoutVariableNames(String route) {
		return VARIABLE_NAME.matcher(route).replaceAll("{$1");
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
			if (capture.endsAtNanos - now > 0 && !capture.full()) {
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
			return new Capture(name, method, parsed, withoutVariableNames(pattern), count, now + within.toNanos(),
					Instant.ofEpochMilli(this.epochMillis.getAsLong()).plus(within));
		}
		catch (PatternParseException ex) {
			throw new IllegalArgumentException("capture is not a URL path pattern such as '/owners/{ownerId}': "
					+ Echo.of(ex.getMessage()) + " at character " + ex.getPosition());
		}
	}

	private static final class Capture {

		final String name;

		/** {@code null} for a URL path pattern's capture: any method. */
		final String method;

		final PathPattern pattern;

		/** The pattern as a route, its variables unnamed. */
		final String route;

		final int count;

		final long endsAtNanos;

		final Instant endsAt;

		/** Requests kept; guarded by this. */
		private int captured;

		/** Requests claimed, not yet settled; guarded by this. */
		private int pending;

		Capture(String name, String method, PathPattern pattern, String route, int count, long endsAtNanos,
				Instant endsAt) {
			this.name = name;
			this.method = method;
			this.pattern = pattern;
			this.route = route;
			this.count = count;
			this.endsAtNanos = endsAtNanos;
			this.endsAt = endsAt;
		}

		/** A place for one more request, while the kept and the pending leave one. */
		synchronized boolean take() {
			if (this.captured + this.pending >= this.count) {
				return false;
			}
			this.pending++;
			return true;
		}

		/**
		 * @return whether the capture has its requests
		 */
		synchronized boolean settle(boolean kept) {
			this.pending--;
			if (kept) {
				this.captured++;
			}
			return this.captured >= this.count;
		}

		synchronized boolean full() {
			return this.captured >= this.count;
		}

		synchronized Map<String, Object> describe() {
			Map<String, Object> described = new LinkedHashMap<>();
			described.put("name", this.name);
			described.put("count", this.count);
			described.put("captured", this.captured);
			described.put("endsAt", this.endsAt.toString());
			return described;
		}

	}

}
