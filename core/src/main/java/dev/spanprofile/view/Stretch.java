package dev.spanprofile.view;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import dev.spanprofile.tracking.MonotonicEpoch;

/**
 * A stretch of one span's life asked for with {@code from} and {@code to}: the flame
 * graph then holds only what happened in it, so that a selection on the timeline can be
 * shared as a URL. Each bound is milliseconds from the span's start ({@code 120.5}) or an
 * ISO-8601 instant ({@code 2026-11-25T10:15:30.120Z}); a missing one is the span's start
 * or its end (now, for a running span).
 */
public final class Stretch {

	private static final double NANOS_PER_MILLI = 1_000_000.0;

	private final Bound from;

	private final Bound to;

	private Stretch(Bound from, Bound to) {
		this.from = from;
		this.to = to;
	}

	/**
	 * @return the stretch, or {@code null} when neither bound is given
	 * @throws ViewException for a bound that is neither a non-negative number of
	 * milliseconds nor an instant
	 */
	public static Stretch parse(String from, String to) {
		Bound start = Bound.parse("from", from);
		Bound end = Bound.parse("to", to);
		if (start == null && end == null) {
			return null;
		}
		if (start != null && end != null && start.absolute == end.absolute && start.nanos >= end.nanos) {
			throw ViewException.badRequest("from must be before to, was from=" + Echo.of(from) + " to=" + Echo.of(to));
		}
		return new Stretch(start, end);
	}

	/**
	 * This stretch of a span that started at {@code startEpochNanos} and has lasted
	 * {@code durationNanos}: {@code to} beyond the end stops at the end.
	 * @throws ViewException when the stretch holds none of the span's time
	 */
	Range resolve(long startEpochNanos, long durationNanos) {
		long end = startEpochNanos + durationNanos;
		long from = (this.from != null) ? this.from.epochNanos(startEpochNanos) : startEpochNanos;
		long to = (this.to != null) ? Math.min(end, this.to.epochNanos(startEpochNanos)) : end;
		String span = " (the span lasted " + EmptyProfiles.millis(durationNanos / NANOS_PER_MILLI) + ")";
		if (from < startEpochNanos) {
			throw ViewException.badRequest("from is before the span's start" + span);
		}
		if (from >= to) {
			throw ViewException.badRequest("The stretch holds none of the span's time: from must be before to and "
					+ "before the span's end" + span);
		}
		return new Range(from, to, (from - startEpochNanos) / NANOS_PER_MILLI,
				(to - startEpochNanos) / NANOS_PER_MILLI);
	}

	/**
	 * A resolved stretch.
	 *
	 * @param fromEpochNanos its start, included
	 * @param toEpochNanos its end, excluded
	 * @param fromMillis its start in milliseconds from the span's
	 * @param toMillis its end in milliseconds from the span's start
	 */
	record Range(long fromEpochNanos, long toEpochNanos, double fromMillis, double toMillis) {
	}

	/** Nanoseconds from the span's start, or epoch nanoseconds when {@code absolute}. */
	private record Bound(long nanos, boolean absolute) {

		static Bound parse(String name, String value) {
			if (value == null || value.isBlank()) {
				return null;
			}
			String text = value.trim();
			if (text.indexOf('T') > 0) {
				try {
					return new Bound(MonotonicEpoch.epochNanos(Instant.parse(text)), true);
				}
				catch (DateTimeParseException ex) {
					throw invalid(name, value);
				}
			}
			double millis;
			try {
				millis = Double.parseDouble(text);
			}
			catch (NumberFormatException ex) {
				throw invalid(name, value);
			}
			// Ten days: far beyond any span, far below an overflow.
			if (!(millis >= 0 && millis <= 864_000_000)) {
				throw ViewException.badRequest(name + " must be between 0 and 864000000 milliseconds from the span's "
						+ "start, was " + Echo.of(value));
			}
			return new Bound(Math.round(millis * NANOS_PER_MILLI), false);
		}

		long epochNanos(long startEpochNanos) {
			return this.absolute ? this.nanos : startEpochNanos + this.nanos;
		}

		private static ViewException invalid(String name, String value) {
			return ViewException.badRequest(name + " must be milliseconds from the span's start (e.g. 120.5) or an "
					+ "ISO-8601 instant (e.g. 2026-11-25T10:15:30.120Z), was '" + Echo.of(value) + "'");
		}

	}

}
