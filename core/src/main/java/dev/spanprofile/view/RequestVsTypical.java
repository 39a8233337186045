package dev.spanprofile.view;

import java.time.Duration;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.aggregate.ProfileDiff;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.BreakdownDifference;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.store.SpanRecord;

/**
 * One request against its name's typical request, in the sentence a name's slow requests
 * get against its typical ones ({@link BreakdownDifference}): {@code this request took
 * 212 ms, 140 ms more than a typical GET /owners: +96.0 ms in 11.0 more round trips to
 * PostgreSQL petclinic at db:5432 (OwnerRepository.findByLastName), +30.0 ms waiting for
 * a core}. The typical request is the name's requests below its p90's band over the
 * aggregates' window, added up as they were folded and taken per request (the request
 * itself among them when it is one of them); the request's own parts are taken as its
 * fold takes them, so that the terms add up to the difference.
 */
final class RequestVsTypical {

	/**
	 * Typical requests needed to say what a typical request is: fewer, and one odd
	 * request would be "typical".
	 */
	static final int MIN_TYPICAL = 5;

	private final String name;

	private final long durationNanos;

	private final long typicalRequests;

	private final Duration window;

	/** {@code null} where there are too few typical requests. */
	private final BreakdownDifference difference;

	private RequestVsTypical(String name, long durationNanos, long typicalRequests, Duration window,
			BreakdownDifference difference) {
		this.name = name;
		this.durationNanos = durationNanos;
		this.typicalRequests = typicalRequests;
		this.window = window;
		this.difference = difference;
	}

	/**
	 * The comparison of a finished local root with its name's typical requests over the
	 * aggregates' window; {@code null} for a span that is no finished local root, or
	 * whose name has no aggregate. Merges the typical requests' waits and CPU samples (to
	 * name the callers of round trips and where CPU went): a page's work, not a list's.
	 */
	static RequestVsTypical of(ViewContext context, NameAggregates aggregates, SpanRecord profiled,
			SpanCpuTime cpuTime) {
		if (profiled != profiled.localRoot() || profiled.inFlight()) {
			return null;
		}
		Duration window = context.aggregateWindow();
		boolean waits = context.sampledKinds().contains(SampleKind.WAIT);
		boolean cpu = context.sampledKinds().contains(SampleKind.CPU);
		ProfileDiff first = aggregates.comparisons()
			.requestAgainstTypical(profiled, window, waits ? SampleKind.WAIT : SampleKind.CPU);
		if (first == null || first.typicalBreakdown() == null) {
			return null;
		}
		long typicalRequests = first.typicalBreakdown().requests();
		long duration = profiled.durationNanos(context.now());
		if (typicalRequests < MIN_TYPICAL) {
			return new RequestVsTypical(profiled.name(), duration, typicalRequests, window, null);
		}
		ProfileDiff cpuSides = (waits && cpu)
				? aggregates.comparisons().requestAgainstTypical(profiled, window, SampleKind.CPU)
				: (cpu ? first : null);
		TimeBreakdown typical = RequestsBreakdowns.of(first.typicalBreakdown(), context.sampledKinds(),
				context.intervalNanos());
		BreakdownDifference difference = BreakdownDifference.of("this request",
				context.foldedBreakdown(profiled, cpuTime), typical, waits ? first.tree() : null,
				(cpuSides != null) ? cpuSides.tree() : null, context.frames(), context.classifier());
		return new RequestVsTypical(profiled.name(), duration, typicalRequests, window, difference);
	}

	/** Whether there were enough typical requests to compare with. */
	boolean compared() {
		return this.difference != null;
	}

	/**
	 * The sentence, or where there are too few typical requests, that there are; ends
	 * without a full stop.
	 */
	String sentence() {
		if (this.difference == null) {
			return "too few typical requests of " + this.name + " in the last " + NameViews.describe(this.window)
					+ " to compare this one with (" + this.typicalRequests + ", at least " + MIN_TYPICAL + " needed)";
		}
		return this.difference.requestSentence(this.durationNanos, this.name);
	}

	RequestVsTypicalJson json() {
		if (this.difference == null) {
			return new RequestVsTypicalJson(sentence(), this.typicalRequests, null, null, null);
		}
		BreakdownDifferenceJson terms = BreakdownDifferenceJson.of(this.difference);
		return new RequestVsTypicalJson(sentence(), this.typicalRequests,
				millis(this.durationNanos - this.difference.moreNanosPerRequest()), terms.moreMillisPerRequest(),
				terms.terms());
	}

	private static double millis(double nanos) {
		return Math.round(nanos / 1_000.0) / 1_000.0;
	}

}
