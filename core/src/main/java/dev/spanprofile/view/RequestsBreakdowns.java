package dev.spanprofile.view;

import java.util.Set;

import dev.spanprofile.aggregate.RequestsBreakdown;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.TimeBreakdownSum;

/**
 * A name's {@link RequestsBreakdown} (its requests' parts, added up as they were folded)
 * as a {@link TimeBreakdown} of several requests, which the page and the JSON show as
 * they show one request's.
 */
final class RequestsBreakdowns {

	private RequestsBreakdowns() {
	}

	/**
	 * @param sampled the kinds sampled now: waits count as recorded where they are, even
	 * with none folded
	 * @param intervalNanos the sampling interval now, what a sample stands for where no
	 * sample was taken
	 */
	static TimeBreakdown of(RequestsBreakdown sums, Set<SampleKind> sampled, long intervalNanos) {
		TimeBreakdownSum sum = TimeBreakdown.ofRequests(sums.requests(), sums.durationNanos());
		if (sums.cpuRequests() > 0) {
			sum.cpu(sums.cpuNanos(), sums.measuredRequests() == sums.cpuRequests());
		}
		if (sampled.contains(SampleKind.WAIT)) {
			sum.waitsRecorded();
		}
		for (RequestsBreakdown.Waits waits : sums.waits()) {
			sum.wait(waits.kind(), waits.detail(), waits.others(), waits.nanos(), waits.count());
		}
		TimeBreakdown breakdown = sum
			.kernel(sums.scheduledRequests(), sums.coreWaitNanos(), sums.coreWaitInWaitsNanos(), sums.shortWaitNanos())
			.rest(sums.unaccountedNanos(), sums.overlapNanos())
			.build();
		// Every sample stood for the same time unless the sampler changed in the window.
		long sampleNanos = (sums.cpuSamples() > 0) ? sums.cpuNanos() / sums.cpuSamples() : intervalNanos;
		return breakdown.cpuSamples(sums.cpuSamples(), sampleNanos);
	}

}
