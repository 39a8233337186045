package dev.spanprofile.test;

import org.assertj.core.api.AbstractDoubleAssert;

/**
 * A time the clock measured, in milliseconds: exact, so it passes or fails at once, with
 * every number assertion of AssertJ besides {@link #isAtMost} and {@link #isAtLeast}.
 */
public final class MeasuredMillisAssert extends AbstractDoubleAssert<MeasuredMillisAssert> {

	MeasuredMillisAssert(double millis, String description) {
		super(millis, MeasuredMillisAssert.class);
		as(description);
	}

	public MeasuredMillisAssert isAtMost(double boundMillis) {
		return isLessThanOrEqualTo(boundMillis);
	}

	public MeasuredMillisAssert isAtLeast(double boundMillis) {
		return isGreaterThanOrEqualTo(boundMillis);
	}

}
