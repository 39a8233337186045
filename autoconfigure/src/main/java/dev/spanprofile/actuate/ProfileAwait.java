package dev.spanprofile.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.view.Echo;
import dev.spanprofile.view.ViewException;

/**
 * A flame graph's {@code await} parameter: wait, at most so long, until the span has
 * ended and every sample up to its end has been joined, so that a script or a test can
 * ask for the graph of a request it just sent without sleeping. Bounded by {@link #MAX};
 * a span the store does not know is not waited for.
 */
public final class ProfileAwait {

	/** The longest {@code await} may ask for. */
	static final Duration MAX = Duration.ofSeconds(30);

	private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m)?");

	/** How often the store is looked at while waiting. */
	private static final long POLL_NANOS = 20_000_000L;

	/** Sleeps; a test's steps time instead. */
	@FunctionalInterface
	interface Sleeper {

		void sleep(long nanos) throws InterruptedException;

	}

	private final SpanProfileStore store;

	private final LongSupplier completeUpToEpochNanos;

	private final Runnable collect;

	private final LongSupplier nanoClock;

	private final Sleeper sleeper;

	ProfileAwait(SpanProfiler profiler) {
		this(profiler.store(), profiler::completeUpToEpochNanos, profiler::collectUnlessFresh, System::nanoTime,
				(nanos) -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
	}

	/**
	 * @param completeUpToEpochNanos up to when every sample has been joined
	 * @param collect brings a collection forward
	 */
	ProfileAwait(SpanProfileStore store, LongSupplier completeUpToEpochNanos, Runnable collect, LongSupplier nanoClock,
			Sleeper sleeper) {
		this.store = store;
		this.completeUpToEpochNanos = completeUpToEpochNanos;
		this.collect = collect;
		this.nanoClock = nanoClock;
		this.sleeper = sleeper;
	}

	/**
	 * The {@code await} parameter among an operation's query parameters, checked:
	 * {@code null} when absent.
	 * @throws ViewException for a value that is not a duration such as {@code 5s}, or one
	 * above {@link #MAX}
	 */
	static Duration parse(Map<String, Object> arguments) {
		Object value = arguments.get("await");
		if (value instanceof List<?> values) {
			value = values.isEmpty() ? null : values.get(values.size() - 1);
		}
		if (value == null) {
			return null;
		}
		String text = value.toString().trim().toLowerCase(Locale.ROOT);
		Matcher matcher = DURATION.matcher(text);
		if (!matcher.matches()) {
			throw ViewException.badRequest("await must be a duration such as 5s or 500ms (at most " + MAX.toSeconds()
					+ "s), was '" + Echo.of(value.toString()) + "'");
		}
		long amount = Long.parseLong(matcher.group(1));
		String unit = (matcher.group(2) != null) ? matcher.group(2) : "s";
		Duration duration = switch (unit) {
			case "ms" -> Duration.ofMillis(amount);
			case "m" -> Duration.ofMinutes(amount);
			default -> Duration.ofSeconds(amount);
		};
		if (duration.compareTo(MAX) > 0) {
			throw ViewException
				.badRequest("await must be at most " + MAX.toSeconds() + "s, was '" + Echo.of(value.toString()) + "'");
		}
		return duration;
	}

	/**
	 * Wait until the span {@code spanId} has ended and its profile is complete, or
	 * {@code timeout} has passed, or the store does not know it.
	 * @return whether its profile is complete
	 */
	boolean awaitComplete(String spanId, Duration timeout) {
		long deadline = this.nanoClock.getAsLong() + timeout.toNanos();
		while (true) {
			SpanRecord record = this.store.find(spanId);
			if (record == null) {
				return false;
			}
			if (!record.inFlight() && this.completeUpToEpochNanos.getAsLong() >= record.endEpochNanos()) {
				return true;
			}
			long left = deadline - this.nanoClock.getAsLong();
			if (left <= 0) {
				return false;
			}
			if (!record.inFlight()) {
				// Ended: what it misses is a collection away; ask for one now.
				this.collect.run();
			}
			try {
				this.sleeper.sleep(Math.min(left, POLL_NANOS));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
	}

}
