package dev.spanprofile.test;

import java.time.Duration;
import java.util.Locale;

import dev.spanprofile.profile.SampleKind;

/**
 * Assertions on how long a request waited (per request, the mean over the requests of the
 * profile): for locks, or on a peer. Waits are recorded one by one with their measured
 * durations rather than sampled, so the figure is not an estimate and these assertions
 * always decide. Only waits of at least the recording threshold count (locks:
 * {@code spanprofile.lock-threshold}, other waits: {@code spanprofile.waits.threshold},
 * 10 ms by default).
 */
public final class WaitAssert {

	private final RequestProfile profile;

	private final SampleKind kind;

	private final String what;

	private final long totalNanos;

	WaitAssert(RequestProfile profile, SampleKind kind, String what, long totalNanos) {
		this.profile = profile;
		this.kind = kind;
		this.what = what;
		this.totalNanos = totalNanos;
	}

	/** The measured wait per request. */
	public Duration perRequest() {
		return Duration.ofNanos(this.totalNanos / this.profile.requestCount());
	}

	public WaitAssert isAtMost(Duration bound) {
		if (perRequest().compareTo(bound) > 0) {
			throw new AssertionError(verdict("at most", bound));
		}
		return this;
	}

	public WaitAssert isAtLeast(Duration bound) {
		if (perRequest().compareTo(bound) < 0) {
			throw new AssertionError(verdict("at least", bound));
		}
		return this;
	}

	/** Some wait was recorded. */
	public WaitAssert isPositive() {
		if (this.totalNanos <= 0) {
			throw new AssertionError(
					String.format(Locale.ROOT, "Expected %s to wait %s, but no such wait was " + "recorded.",
							this.profile.description(), this.what) + FailureReport.evidence(this.profile, this.kind));
		}
		return this;
	}

	private String verdict(String relation, Duration bound) {
		return String.format(Locale.ROOT,
				"Expected %s to wait %s %s per request, but it waited %.1f ms (%d " + "request(s)).",
				this.profile.description(), this.what, relation + " " + millis(bound),
				this.totalNanos / 1e6 / this.profile.requestCount(), this.profile.requestCount())
				+ FailureReport.evidence(this.profile, this.kind);
	}

	private static String millis(Duration duration) {
		return String.format(Locale.ROOT, "%.1f ms", duration.toNanos() / 1e6);
	}

}
