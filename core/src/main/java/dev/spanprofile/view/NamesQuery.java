package dev.spanprofile.view;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.aggregate.LatencySelection;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SamplerSettings;

/**
 * What to show of the span-name aggregates: the list of names, one name's profile
 * (optionally of a selection of its requests by end time and duration: a rectangle of its
 * heatmap), its slow spans against its typical ones or the selection against the rest, or
 * the stored spans behind one frame of it.
 *
 * @param window how far back, at most the aggregate window
 * @param name the exact span name, or {@code null} for the list
 * @param minNanos shortest span included (the slow side's threshold when comparing), or
 * {@code null}
 * @param maxNanos first duration excluded (a maximum on a latency band's edge leaves that
 * band out), or {@code null}
 * @param compare whether two sides are compared: slow spans with typical ones, or the
 * selection with the rest
 * @param frame frame names from the outermost down, joined by {@code ;}, or {@code null}
 * @param kind cpu or wall samples
 * @param fromEpochNanos first end time selected (a heatmap selection's left edge), or
 * {@code null}
 * @param toEpochNanos first end time no longer selected, or {@code null}
 * @param rest whether the comparison is of the selection against the rest of the name's
 * requests
 */
public record NamesQuery(Duration window, String name, Long minNanos, Long maxNanos, boolean compare, String frame,
		SampleKind kind, Long fromEpochNanos, Long toEpochNanos, boolean rest) {

	/** A query without a time selection. */
	public NamesQuery(Duration window, String name, Long minNanos, Long maxNanos, boolean compare, String frame,
			SampleKind kind) {
		this(window, name, minNanos, maxNanos, compare, frame, kind, null, null, false);
	}

	/**
	 * Whether the query selects part of the name's requests: by end time, by duration, or
	 * both.
	 */
	public boolean selects() {
		return this.minNanos != null || this.maxNanos != null || this.fromEpochNanos != null
				|| this.toEpochNanos != null;
	}

	/** The requests selected, as the aggregates apply it. */
	public LatencySelection selection() {
		return new LatencySelection((this.fromEpochNanos != null) ? this.fromEpochNanos : Long.MIN_VALUE,
				(this.toEpochNanos != null) ? this.toEpochNanos : Long.MAX_VALUE,
				(this.minNanos != null) ? this.minNanos : 0, (this.maxNanos != null) ? this.maxNanos : Long.MAX_VALUE);
	}

	private static final Pattern WINDOW = Pattern.compile("(\\d{1,7})\\s*(s|m|h|d)", Pattern.CASE_INSENSITIVE);

	/**
	 * @param maxWindow the aggregate window ({@code spanprofile.aggregate.window});
	 * longer windows are cut to it
	 * @throws ViewException for a malformed or out-of-range parameter
	 */
	public static NamesQuery parse(String window, String name, String minDurationMillis, String maxDurationMillis,
			String compare, String frame, String event, SamplerSettings sampler, Duration maxWindow) {
		return parse(window, name, minDurationMillis, maxDurationMillis, compare, frame, null, null, event, sampler,
				maxWindow);
	}

	/**
	 * As the other {@code parse}, with a selection of end times: {@code from} and
	 * {@code to} are ISO-8601 instants, and {@code compare=rest} compares the selected
	 * requests with the name's others.
	 * @throws ViewException for a malformed or out-of-range parameter
	 */
	public static NamesQuery parse(String window, String name, String minDurationMillis, String maxDurationMillis,
			String compare, String frame, String from, String to, String event, SamplerSettings sampler,
			Duration maxWindow) {
		Duration parsedWindow = window(window, maxWindow);
		Long min = millis("minDurationMillis", minDurationMillis);
		Long max = millis("maxDurationMillis", maxDurationMillis);
		if (min != null && max != null && min > max) {
			throw ViewException.badRequest("minDurationMillis (" + minDurationMillis.trim()
					+ ") is greater than maxDurationMillis (" + maxDurationMillis.trim() + ")");
		}
		Long fromNanos = instant("from", from);
		Long toNanos = instant("to", to);
		if (fromNanos != null && toNanos != null && fromNanos >= toNanos) {
			throw ViewException.badRequest("from (" + from.trim() + ") must be before to (" + to.trim() + ")");
		}
		boolean comparing = false;
		boolean rest = false;
		if (compare != null && !compare.isBlank()) {
			rest = compare.trim().equalsIgnoreCase("rest");
			if (!rest && !compare.trim().equalsIgnoreCase("typical")) {
				throw ViewException.badRequest("compare must be 'typical' or 'rest', was '" + Echo.of(compare) + "'");
			}
			comparing = true;
		}
		String exactName = (name != null && !name.isEmpty()) ? name : null;
		boolean timed = fromNanos != null || toNanos != null;
		if (exactName == null && (comparing || min != null || max != null || frame != null || timed)) {
			throw ViewException.badRequest("name= is needed: compare, frame, from, to and duration ranges apply to "
					+ "one span name's profile");
		}
		if (comparing && !rest && max != null) {
			throw ViewException.badRequest("maxDurationMillis does not apply with compare=typical: the slow side "
					+ "is every span from minDurationMillis up");
		}
		if (comparing && !rest && timed) {
			throw ViewException.badRequest("from and to do not apply with compare=typical, which takes the whole "
					+ "window; compare=rest compares a selection with the name's other requests");
		}
		if (rest && min == null && max == null && !timed) {
			throw ViewException.badRequest("compare=rest needs a selection to compare with the rest: from, to, "
					+ "minDurationMillis or maxDurationMillis");
		}
		return new NamesQuery(parsedWindow, exactName, min, max, comparing,
				(frame != null && !frame.isEmpty()) ? frame : null, ProfileQuery.sampleKind(event, sampler), fromNanos,
				toNanos, rest);
	}

	private static Long instant(String parameter, String value) {
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			Instant instant = Instant.parse(value.trim());
			return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
		}
		catch (DateTimeParseException | ArithmeticException ex) {
			throw ViewException.badRequest(parameter + " must be an ISO-8601 instant such as 2026-11-25T10:15:00Z, "
					+ "was '" + Echo.of(value) + "'");
		}
	}

	private static Duration window(String window, Duration maxWindow) {
		if (window == null || window.isBlank()) {
			return maxWindow;
		}
		Matcher matcher = WINDOW.matcher(window.trim());
		if (!matcher.matches()) {
			throw ViewException.badRequest(
					"window must be a number with a unit s, m, h or d (e.g. 15m), was '" + Echo.of(window) + "'");
		}
		long amount = Long.parseLong(matcher.group(1));
		Duration parsed = switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
			case "s" -> Duration.ofSeconds(amount);
			case "m" -> Duration.ofMinutes(amount);
			case "h" -> Duration.ofHours(amount);
			default -> Duration.ofDays(amount);
		};
		if (parsed.isZero()) {
			throw ViewException.badRequest("window must be positive, was '" + Echo.of(window) + "'");
		}
		return (parsed.compareTo(maxWindow) > 0) ? maxWindow : parsed;
	}

	private static Long millis(String parameter, String value) {
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			double millis = Double.parseDouble(value.trim());
			if (!(millis >= 0) || millis > 1e9) {
				throw ViewException.badRequest(parameter + " must be between 0 and 1e9, was '" + Echo.of(value) + "'");
			}
			// Rounded, not truncated: a band edge written in milliseconds (0.125992) is
			// that edge again.
			return Math.round(millis * 1_000_000);
		}
		catch (NumberFormatException ex) {
			throw ViewException
				.badRequest(parameter + " must be a number of milliseconds, was '" + Echo.of(value) + "'");
		}
	}

}
