package dev.spanprofile.actuate;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.view.Echo;
import dev.spanprofile.view.ViewException;

/**
 * A capture as a {@code POST} asks for it, checked field by field before anything
 * changes: {@code capture} (the name, required), {@code count} (0 to
 * {@link CaptureControl#MAX_COUNT}; 0 cancels), {@code within} (a duration such as
 * {@code 10m}, at most {@link CaptureControl#MAX_WITHIN}; default 10 minutes).
 *
 * @param name the span name or URL path pattern
 * @param count how many requests; 0 cancels
 * @param within how long at most
 */
record CaptureRequest(String name, int count, Duration within) {

	private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

	/**
	 * @throws ViewException a 400 naming the field that is wrong
	 */
	static CaptureRequest parse(CaptureParameters parameters) {
		String capture = parameters.capture();
		String count = parameters.count();
		String within = parameters.within();
		if (capture == null || capture.isBlank()) {
			throw ViewException.badRequest("capture must be a span name such as 'http get /owners/{ownerId}' or a "
					+ "URL path pattern such as '/owners/**'");
		}
		return new CaptureRequest(capture.trim(), count(count), within(within));
	}

	private static int count(String value) {
		String text = (value != null) ? value.trim() : "";
		if (!text.matches("\\d{1,9}") || Integer.parseInt(text) > CaptureControl.MAX_COUNT) {
			throw ViewException.badRequest("count must be a whole number from 0 (cancel) to " + CaptureControl.MAX_COUNT
					+ ", was '" + Echo.of(text) + "'");
		}
		return Integer.parseInt(text);
	}

	private static Duration within(String value) {
		if (value == null) {
			return Duration.ofMinutes(10);
		}
		String text = String.valueOf(value).trim().toLowerCase(Locale.ROOT);
		Matcher matcher = DURATION.matcher(text);
		if (!matcher.matches()) {
			throw ViewException.badRequest(
					"within must be a duration such as 10m, 90s or 1h, was '" + Echo.of(String.valueOf(value)) + "'");
		}
		long amount = Long.parseLong(matcher.group(1));
		Duration within = switch (matcher.group(2)) {
			case "ms" -> Duration.ofMillis(amount);
			case "s" -> Duration.ofSeconds(amount);
			case "m" -> Duration.ofMinutes(amount);
			default -> Duration.ofHours(amount);
		};
		if (within.isZero() || within.compareTo(CaptureControl.MAX_WITHIN) > 0) {
			throw ViewException
				.badRequest("within must be more than 0 and at most 1h, was '" + Echo.of(String.valueOf(value)) + "'");
		}
		return within;
	}

}
