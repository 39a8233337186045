package dev.spanprofile.test;

import java.util.function.Supplier;

import java.util.Locale;

import dev.spanprofile.profile.SampleKind;

/**
 * Assertions on the share of a profile's samples that pass through some frames, e.g. the
 * CPU spent under {@code com.fasterxml.jackson}. Each passes or fails only when the
 * {@link Confidence 99.9 % range} of the share is wholly on one side of the bound and
 * there are at least {@link #withMinimumSamples minimum} samples; otherwise it throws
 * {@link InconclusiveProfileException}, which says how many samples there were.
 */
public final class ShareAssert {

	/**
	 * Below this, a share says more about when the samples happened to fall than about
	 * the request.
	 */
	static final int DEFAULT_MINIMUM_SAMPLES = 20;

	/** What the profile looked like, appended to a failure or refusal. */
	private final Supplier<String> evidence;

	private final SampleKind kind;

	private final String frames;

	private final long hits;

	private final long total;

	private int minimumSamples = DEFAULT_MINIMUM_SAMPLES;

	ShareAssert(RequestProfile profile, SampleKind kind, String frames, long hits, long total) {
		this(() -> FailureReport.evidence(profile, kind), kind, frames, hits, total);
	}

	ShareAssert(Supplier<String> evidence, SampleKind kind, String frames, long hits, long total) {
		this.evidence = evidence;
		this.kind = kind;
		this.frames = frames;
		this.hits = hits;
		this.total = total;
	}

	/** Decide on fewer (or demand more) samples than the default of 20. */
	public ShareAssert withMinimumSamples(int minimumSamples) {
		this.minimumSamples = minimumSamples;
		return this;
	}

	/** The measured share, for tests that print or compare it themselves. */
	public double share() {
		return (this.total > 0) ? (double) this.hits / this.total : 0;
	}

	public ShareAssert isAtMost(double bound) {
		Confidence range = checkEnoughSamples("at most", bound);
		if (range.above(bound)) {
			throw new AssertionError(verdict("at most", bound, range));
		}
		if (!range.atMost(bound)) {
			throw inconclusive("at most", bound, range);
		}
		return this;
	}

	public ShareAssert isAtLeast(double bound) {
		Confidence range = checkEnoughSamples("at least", bound);
		if (range.below(bound)) {
			throw new AssertionError(verdict("at least", bound, range));
		}
		if (!range.atLeast(bound)) {
			throw inconclusive("at least", bound, range);
		}
		return this;
	}

	private Confidence checkEnoughSamples(String relation, double bound) {
		if (bound < 0 || bound > 1) {
			throw new IllegalArgumentException("A share is between 0 and 1, was " + bound);
		}
		Confidence range = Confidence.ofShare(this.hits, this.total);
		if (this.total < this.minimumSamples) {
			throw inconclusive(relation, bound, range);
		}
		return range;
	}

	private String verdict(String relation, double bound, Confidence range) {
		return String.format(Locale.ROOT,
				"Expected the %s share under %s to be %s %.2f, but it was %.2f: %d of %d "
						+ "%s samples (%s range %.2f–%.2f).",
				this.kind.id(), this.frames, relation, bound, share(), this.hits, this.total, this.kind.id(),
				Confidence.LEVEL, range.low(), range.high()) + this.evidence.get();
	}

	private InconclusiveProfileException inconclusive(String relation, double bound, Confidence range) {
		String why = (this.total < this.minimumSamples) ? "too few" : "not enough";
		String message = String.format(Locale.ROOT, "%d samples: %s to tell whether the %s share under %s is %s "
				+ "%.2f (measured %.2f, %d of %d; %s range %.2f–%.2f). A decision needs at least %d samples and the "
				+ "range wholly on one side of the bound: run the request more often (SpanProfileAssertions.repeat) "
				+ "or lower the interval (@ProfiledTest(interval = ...)).", this.total, why, this.kind.id(),
				this.frames, relation, bound, share(), this.hits, this.total, Confidence.LEVEL, range.low(),
				range.high(), this.minimumSamples);
		return new InconclusiveProfileException(message + this.evidence.get());
	}

}
