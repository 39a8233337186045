package dev.spanprofile.test;

import java.time.Duration;
import java.util.Locale;

/**
 * A time counted from samples, each standing for one sampling interval: it passes or
 * fails only when the {@link Confidence 99.9 % range} of the count, times the interval,
 * is wholly on one side of the bound, and otherwise refuses to decide
 * ({@link InconclusiveProfileException}).
 */
public final class SampledMillisAssert {

	private final String description;

	private final long samples;

	private final double intervalMillis;

	SampledMillisAssert(String description, long samples, Duration interval) {
		this.description = description;
		this.samples = samples;
		this.intervalMillis = interval.toNanos() / 1e6;
	}

	/** The measured time: samples times the interval, in milliseconds. */
	public double millis() {
		return this.samples * this.intervalMillis;
	}

	public SampledMillisAssert isAtMost(double boundMillis) {
		Confidence range = range();
		if (range.above(boundMillis)) {
			throw new AssertionError(verdict("at most", boundMillis, range));
		}
		if (!range.atMost(boundMillis)) {
			throw inconclusive("at most", boundMillis, range);
		}
		return this;
	}

	public SampledMillisAssert isAtLeast(double boundMillis) {
		Confidence range = range();
		if (range.below(boundMillis)) {
			throw new AssertionError(verdict("at least", boundMillis, range));
		}
		if (!range.atLeast(boundMillis)) {
			throw inconclusive("at least", boundMillis, range);
		}
		return this;
	}

	private Confidence range() {
		return Confidence.ofCount(this.samples).times(this.intervalMillis);
	}

	private String verdict(String relation, double bound, Confidence range) {
		return String.format(Locale.ROOT,
				"Expected the %s to be %s %.1f ms, but it was %.1f ms: %d samples every "
						+ "%.1f ms (%s range %.1f–%.1f ms).",
				this.description, relation, bound, millis(), this.samples, this.intervalMillis, Confidence.LEVEL,
				range.low(), range.high());
	}

	private InconclusiveProfileException inconclusive(String relation, double bound, Confidence range) {
		return new InconclusiveProfileException(String.format(Locale.ROOT,
				"%d samples: not enough to tell whether the %s is %s %.1f ms (measured %.1f ms, %s range "
						+ "%.1f–%.1f ms). Lower the interval (@ProfiledTest(interval = ...)) for more samples.",
				this.samples, this.description, relation, bound, millis(), Confidence.LEVEL, range.low(),
				range.high()));
	}

}
