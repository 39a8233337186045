package dev.spanprofile.view;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/** Wording and links the span-name views share. */
final class NameViews {

	private NameViews() {
	}

	static String describe(Duration window) {
		long seconds = window.toSeconds();
		if (seconds % 3600 == 0) {
			return (seconds / 3600) + " h";
		}
		if (seconds % 60 == 0) {
			return (seconds / 60) + " min";
		}
		return seconds + " s";
	}

	/**
	 * A selection of a name's requests as query parameters
	 * ({@code &from=...&maxDurationMillis=...}), each bound only when given: end times as
	 * ISO-8601 instants, durations in milliseconds.
	 */
	static String selectionQuery(Long fromEpochNanos, Long toEpochNanos, Long minNanos, Long maxNanos) {
		StringBuilder query = new StringBuilder();
		if (fromEpochNanos != null) {
			query.append("&from=").append(Instant.ofEpochSecond(0, fromEpochNanos));
		}
		if (toEpochNanos != null) {
			query.append("&to=").append(Instant.ofEpochSecond(0, toEpochNanos));
		}
		if (minNanos != null) {
			query.append("&minDurationMillis=").append(minNanos / 1e6);
		}
		if (maxNanos != null) {
			query.append("&maxDurationMillis=").append(maxNanos / 1e6);
		}
		return query.toString();
	}

	static String selectionQuery(NamesQuery query) {
		return selectionQuery(query.fromEpochNanos(), query.toEpochNanos(), query.minNanos(), query.maxNanos());
	}

	/**
	 * The query string of a name's views, from {@code names}; {@code format} and the rest
	 * are appended.
	 */
	static String nameHref(String name, Duration window) {
		return "names?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "&window=" + window.toSeconds() + "s";
	}

}
