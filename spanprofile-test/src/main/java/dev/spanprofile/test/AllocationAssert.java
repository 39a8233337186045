package dev.spanprofile.test;

import java.util.Locale;

import dev.spanprofile.profile.SampleKind;

/**
 * Assertions on the bytes a request allocates (per request, the mean over the requests of
 * the profile), from allocation samples taken every {@code alloc-interval} bytes. The
 * number of samples behind the figure is a Poisson count (total bytes over the interval);
 * the assertion decides only when the {@link Confidence 99.9 % range} of the bytes it
 * implies is wholly on one side of the budget, and otherwise throws
 * {@link InconclusiveProfileException}. The range assumes async-profiler's sampling;
 * Flight Recorder's throttled samples (the {@code jfr} engine) make a short request's
 * bytes rougher than it says (see docs/engines.md).
 */
public final class AllocationAssert {

	private final RequestProfile profile;

	private final long totalBytes;

	private final long interval;

	AllocationAssert(RequestProfile profile, long totalBytes, long interval) {
		this.profile = profile;
		this.totalBytes = totalBytes;
		this.interval = interval;
	}

	/** The measured bytes per request. */
	public double bytesPerRequest() {
		return (double) this.totalBytes / this.profile.requestCount();
	}

	public AllocationAssert isAtMost(long bytes) {
		Confidence range = range();
		if (range.above(bytes)) {
			throw new AssertionError(verdict("at most", bytes, range));
		}
		if (!range.atMost(bytes)) {
			throw inconclusive("at most", bytes, range);
		}
		return this;
	}

	public AllocationAssert isAtLeast(long bytes) {
		Confidence range = range();
		if (range.below(bytes)) {
			throw new AssertionError(verdict("at least", bytes, range));
		}
		if (!range.atLeast(bytes)) {
			throw inconclusive("at least", bytes, range);
		}
		return this;
	}

	/** The range of bytes per request. */
	private Confidence range() {
		double samples = (double) this.totalBytes / this.interval;
		return Confidence.ofCount(samples).times((double) this.interval / this.profile.requestCount());
	}

	private String samples() {
		return String.format(Locale.ROOT, "%.0f allocation samples of %s", (double) this.totalBytes / this.interval,
				FailureReport.bytes(this.interval));
	}

	private String verdict(String relation, long bound, Confidence range) {
		return String.format(Locale.ROOT,
				"Expected %s allocated per request to be %s %s, but it was %s (%s range "
						+ "%s–%s): %s over %d request(s).",
				this.profile.description(), relation, FailureReport.bytes(bound),
				FailureReport.bytes(bytesPerRequest()), Confidence.LEVEL, FailureReport.bytes(range.low()),
				FailureReport.bytes(range.high()), samples(), this.profile.requestCount())
				+ FailureReport.evidence(this.profile, SampleKind.ALLOC);
	}

	private InconclusiveProfileException inconclusive(String relation, long bound, Confidence range) {
		String message = String.format(Locale.ROOT, "%s: too few to tell whether %s allocates %s %s per request "
				+ "(measured %s, %s range %s–%s). Run the request more often (SpanProfileAssertions.repeat) or lower "
				+ "the allocation interval (@ProfiledTest(allocInterval = ...)).", samples(),
				this.profile.description(), relation, FailureReport.bytes(bound),
				FailureReport.bytes(bytesPerRequest()), Confidence.LEVEL, FailureReport.bytes(range.low()),
				FailureReport.bytes(range.high()));
		return new InconclusiveProfileException(message + FailureReport.evidence(this.profile, SampleKind.ALLOC));
	}

}
