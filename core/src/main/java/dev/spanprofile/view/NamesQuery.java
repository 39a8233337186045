package dev.spanprofile.view;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SamplerSettings;

/**
 * What to show of the span-name aggregates: the list of names, one name's profile (optionally within a duration
 * range), its slow spans against its typical ones, or the stored spans behind one frame of it.
 *
 * @param window how far back, at most the aggregate window
 * @param name the exact span name, or {@code null} for the list
 * @param minNanos shortest span included (the slow side's threshold when comparing), or {@code null}
 * @param maxNanos longest span included, or {@code null}
 * @param compare whether slow spans are compared with typical ones
 * @param frame frame names from the outermost down, joined by {@code ;}, or {@code null}
 * @param kind cpu or wall samples
 */
public record NamesQuery(Duration window, String name, Long minNanos, Long maxNanos, boolean compare, String frame,
		SampleKind kind) {

	private static final Pattern WINDOW = Pattern.compile("(\\d{1,7})\\s*(s|m|h|d)", Pattern.CASE_INSENSITIVE);

	/**
	 * @param maxWindow the aggregate window ({@code spanprofile.aggregate.window}); longer windows are cut to it
	 * @throws ViewException for a malformed or out-of-range parameter
	 */
	public static NamesQuery parse(String window, String name, String minDurationMillis, String maxDurationMillis,
			String compare, String frame, String event, SamplerSettings sampler, Duration maxWindow) {
		Duration parsedWindow = window(window, maxWindow);
		Long min = millis("minDurationMillis", minDurationMillis);
		Long max = millis("maxDurationMillis", maxDurationMillis);
		if (min != null && max != null && min > max) {
			throw ViewException.badRequest("minDurationMillis (" + minDurationMillis.trim()
					+ ") is greater than maxDurationMillis (" + maxDurationMillis.trim() + ")");
		}
		boolean comparing = false;
		if (compare != null && !compare.isBlank()) {
			if (!compare.trim().equalsIgnoreCase("typical")) {
				throw ViewException.badRequest("compare must be 'typical', was '" + Echo.of(compare) + "'");
			}
			comparing = true;
		}
		String exactName = (name != null && !name.isEmpty()) ? name : null;
		if (exactName == null && (comparing || min != null || max != null || frame != null)) {
			throw ViewException.badRequest("name= is needed: compare, frame and duration ranges apply to one "
					+ "span name's profile");
		}
		if (comparing && max != null) {
			throw ViewException.badRequest("maxDurationMillis does not apply with compare=typical: the slow side "
					+ "is every span from minDurationMillis up");
		}
		return new NamesQuery(parsedWindow, exactName, min, max, comparing,
				(frame != null && !frame.isEmpty()) ? frame : null, ProfileQuery.sampleKind(event, sampler));
	}

	private static Duration window(String window, Duration maxWindow) {
		if (window == null || window.isBlank()) {
			return maxWindow;
		}
		Matcher matcher = WINDOW.matcher(window.trim());
		if (!matcher.matches()) {
			throw ViewException.badRequest("window must be a number with a unit s, m, h or d (e.g. 15m), was '"
					+ Echo.of(window) + "'");
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
			return (long) (millis * 1_000_000);
		}
		catch (NumberFormatException ex) {
			throw ViewException.badRequest(parameter + " must be a number of milliseconds, was '" + Echo.of(value)
					+ "'");
		}
	}

}
