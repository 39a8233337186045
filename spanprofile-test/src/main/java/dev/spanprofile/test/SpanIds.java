package dev.spanprofile.test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A span id as a forced request's {@code Server-Timing} header names it. */
final class SpanIds {

	private static final Pattern SPAN_ID = Pattern.compile("[0-9a-f]{16}");

	private static final Pattern SERVER_TIMING = Pattern.compile("(?:^|,)\\s*spanprofile\\s*;\\s*desc=\"([^\"]*)\"");

	private SpanIds() {
	}

	/**
	 * The span id in {@code spanprofile;desc="<spanId>"} (among other metrics, if any),
	 * or {@code value} itself when it is a span id.
	 * @throws IllegalArgumentException when there is none, with the reason the server
	 * gave when it said one ({@code not profiled: rate limit})
	 */
	static String fromServerTiming(String value) {
		if (value == null) {
			throw new IllegalArgumentException("No Server-Timing header: the request was not forced. Send it with "
					+ "profileHeader() to a server of the test's application");
		}
		String trimmed = value.trim();
		if (SPAN_ID.matcher(trimmed).matches()) {
			return trimmed;
		}
		Matcher matcher = SERVER_TIMING.matcher(trimmed);
		if (!matcher.find()) {
			throw new IllegalArgumentException("Server-Timing '" + value + "' names no spanprofile span");
		}
		String description = matcher.group(1);
		if (!SPAN_ID.matcher(description).matches()) {
			// The server's reason, such as "not profiled: rate limit".
			throw new IllegalArgumentException("The request was " + description);
		}
		return description;
	}

}
