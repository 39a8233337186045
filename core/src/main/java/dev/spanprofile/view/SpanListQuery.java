package dev.spanprofile.view;

import java.util.Locale;

import dev.spanprofile.store.SpanRecord;

/**
 * Which spans the list shows, parsed from the request's text so that bad input gets a
 * message that says what is wrong.
 *
 * @param limit maximum number of spans listed
 * @param name only spans whose name contains this, ignoring case; empty for all
 * @param minDurationMillis only spans at least this long (so far, for running ones)
 */
public record SpanListQuery(int limit, String name, double minDurationMillis) {

	public static final int DEFAULT_LIMIT = 100;

	/**
	 * @param limit maximum number of spans, or {@code null} for {@value #DEFAULT_LIMIT}
	 * @param name name filter, or {@code null}
	 * @param minDurationMillis minimum duration, or {@code null} for none
	 * @throws ViewException when a number is malformed or out of range
	 */
	public static SpanListQuery parse(String limit, String name, String minDurationMillis) {
		return new SpanListQuery(parseLimit(limit), (name != null) ? name : "", parseMinDuration(minDurationMillis));
	}

	boolean matches(SpanRecord record, long nowEpochNanos) {
		return (this.name.isBlank()
				|| record.name().toLowerCase(Locale.ROOT).contains(this.name.toLowerCase(Locale.ROOT)))
				&& record.durationNanos(nowEpochNanos) >= (long) (this.minDurationMillis * 1_000_000);
	}

	private static int parseLimit(String limit) {
		if (limit == null || limit.isBlank()) {
			return DEFAULT_LIMIT;
		}
		int value;
		try {
			value = Integer.parseInt(limit.trim());
		}
		catch (NumberFormatException ex) {
			throw ViewException.badRequest("limit must be a whole number, was '" + Echo.of(limit) + "'");
		}
		if (value < 1) {
			throw ViewException.badRequest("limit must be at least 1, was " + value);
		}
		return value;
	}

	private static double parseMinDuration(String minDurationMillis) {
		if (minDurationMillis == null || minDurationMillis.isBlank()) {
			return 0;
		}
		double value;
		try {
			value = Double.parseDouble(minDurationMillis.trim());
		}
		catch (NumberFormatException ex) {
			throw ViewException.badRequest(
					"minDurationMillis must be a number of milliseconds, was '" + Echo.of(minDurationMillis) + "'");
		}
		if (!(value >= 0) || Double.isInfinite(value)) {
			throw ViewException.badRequest("minDurationMillis must be zero or more, was " + Echo.of(minDurationMillis));
		}
		return value;
	}

}
