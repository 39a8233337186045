package dev.spanprofile.render;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

/**
 * A {@link TimeBreakdown} as a span's JSON carries it: where the request's time went, in
 * milliseconds to the microsecond (the parts add up to the duration to within a few
 * microseconds). A part that does not apply is left out rather than written as zero, so
 * that "not sampled" and "none" stay apart.
 *
 * @param durationMillis the span's duration (so far, for a running span)
 * @param cpuMillis its CPU time, when CPU is sampled; else {@code null}, left out
 * @param cpuFrom where that figure comes from: {@code thread CPU clocks} or
 * {@code samples}; left out with it
 * @param cpuSamples where CPU is estimated from samples, how many; else left out
 * @param cpuLowMillis where CPU is estimated from samples, the low end of how sure that
 * is: the wider of one sample and the square root of the count (one standard deviation of
 * a Poisson count) below the estimate; else left out
 * @param cpuHighMillis the high end, as far above; else left out
 * @param profilerMillis CPU time in the profiler's own code, when there was any; else
 * left out
 * @param waitsRecorded whether waits are recorded, so that no {@code waits} means none
 * were
 * @param waitMillis the time waited, when waits are recorded; else left out
 * @param waits the waits by category, longest first, when recorded; else left out
 * @param coreWaitMillis how long the request's threads were runnable but not running,
 * waiting for a core, as the kernel counted it (less what of it the recorded waits
 * include), when it was read; else left out
 * @param coreWaitInWaitsMillis the part of the kernel's figure the recorded waits
 * include, when there is one; else left out
 * @param coreWaitBeforeMillis how long the request's first thread waited for a core
 * between leaving its previous request and entering this one, as the kernel counted it:
 * before the duration began, so not one of the parts; when it was read, else left out
 * @param shortWaitMillis how long the threads were blocked that no recorded wait covers
 * (waits under the recording threshold), when the kernel's figures were read with the CPU
 * clocks; else left out
 * @param unaccountedMillis what neither CPU nor a wait (recorded, short or for a core)
 * explains
 * @param overlapMillis how much the parts exceed the duration, when they do; else left
 * out
 * @param note why they do, when they do; else left out
 * @param roundTrips round trips to each peer (socket reads that waited for its answer),
 * most first, when there were any; else left out
 * @param handOff why the request's work likely ran on other threads without its context
 * (the setting, and where it is off), when most of its time is unaccounted for or parked
 * without CPU of its own and such a setting is off; else left out
 * @param throttling how much the container's CPU limit throttled the process around the
 * request, when it did; else left out
 * @param requests for a breakdown of several requests (a name, a selection, one side of a
 * comparison), how many it adds up, each part being their parts added up request by
 * request; left out for one request's own
 */
public record TimeBreakdownJson(double durationMillis, @JsonInclude(Include.NON_NULL) Double cpuMillis,
		@JsonInclude(Include.NON_NULL) String cpuFrom, @JsonInclude(Include.NON_NULL) Long cpuSamples,
		@JsonInclude(Include.NON_NULL) Double cpuLowMillis, @JsonInclude(Include.NON_NULL) Double cpuHighMillis,
		@JsonInclude(Include.NON_NULL) Double profilerMillis, boolean waitsRecorded,
		@JsonInclude(Include.NON_NULL) Double waitMillis, @JsonInclude(Include.NON_NULL) List<Wait> waits,
		@JsonInclude(Include.NON_NULL) Double coreWaitMillis,
		@JsonInclude(Include.NON_NULL) Double coreWaitInWaitsMillis,
		@JsonInclude(Include.NON_NULL) Double coreWaitBeforeMillis,
		@JsonInclude(Include.NON_NULL) Double shortWaitMillis, double unaccountedMillis,
		@JsonInclude(Include.NON_NULL) Double overlapMillis, @JsonInclude(Include.NON_NULL) String note,
		@JsonInclude(Include.NON_EMPTY) List<RoundTrips> roundTrips, @JsonInclude(Include.NON_NULL) Long requests,
		@JsonInclude(Include.NON_NULL) String handOff, @JsonInclude(Include.NON_NULL) Throttling throttling) {

	static TimeBreakdownJson of(TimeBreakdown breakdown) {
		boolean cpu = breakdown.cpuSampled();
		boolean waited = breakdown.waitsRecorded();
		boolean overlap = breakdown.overlapNanos() > 0;
		boolean scheduled = breakdown.scheduled();
		return new TimeBreakdownJson(millis(breakdown.durationNanos()), cpu ? millis(breakdown.cpuNanos()) : null,
				cpu ? (breakdown.cpuMeasured() ? "thread CPU clocks" : "samples") : null,
				breakdown.cpuEstimated() ? breakdown.cpuSampleCount() : null,
				breakdown.cpuEstimated() ? millis(breakdown.cpuLowNanos()) : null,
				breakdown.cpuEstimated() ? millis(breakdown.cpuHighNanos()) : null,
				(breakdown.profilerNanos() > 0) ? millis(breakdown.profilerNanos()) : null, waited,
				waited ? millis(breakdown.waitNanos()) : null,
				waited ? breakdown.waits().stream().map(Wait::of).toList() : null,
				scheduled ? millis(breakdown.coreWaitNanos()) : null,
				(breakdown.coreWaitInWaitsNanos() > 0) ? millis(breakdown.coreWaitInWaitsNanos()) : null,
				(breakdown.coreWaitBeforeNanos() >= 0) ? millis(breakdown.coreWaitBeforeNanos()) : null,
				breakdown.shortWaitsMeasured() ? millis(breakdown.shortWaitNanos()) : null,
				millis(breakdown.unaccountedNanos()), overlap ? millis(breakdown.overlapNanos()) : null,
				overlap ? breakdown.overlapNote() : null,
				breakdown.roundTrips()
					.stream()
					.map((trips) -> RoundTrips.of(trips, breakdown.summed() ? breakdown.requests() : 0))
					.toList(),
				breakdown.summed() ? breakdown.requests() : null, breakdown.handOffNote(),
				Throttling.of(breakdown.throttling()));
	}

	/** Milliseconds to the microsecond. */
	private static double millis(long nanos) {
		return Math.round(nanos / 1_000.0) / 1_000.0;
	}

	/**
	 * One category of waits.
	 *
	 * @param category e.g. {@code socket I/O}, or {@code other}
	 * @param millis the time waited
	 * @param count how many waits
	 * @param on the details waited on most, longest first, when any is named; else left
	 * out
	 * @param otherDetails the other details added up, when there are more than
	 * {@link TimeBreakdown#TOP_DETAILS}; else left out
	 */
	public record Wait(String category, double millis, long count, @JsonInclude(Include.NON_NULL) List<Detail> on,
			@JsonInclude(Include.NON_NULL) Detail otherDetails) {

		static Wait of(WaitCategory category) {
			return new Wait(category.name(), TimeBreakdownJson.millis(category.nanos()), category.count(),
					category.on().isEmpty() ? null : category.on().stream().map(Detail::of).toList(),
					(category.others() != null) ? Detail.of(category.others()) : null);
		}

	}

	/**
	 * What waits were on.
	 *
	 * @param detail a peer {@code host:port}, a file, a monitor's class; for the others,
	 * how many
	 * @param millis the time waited on it
	 * @param count how many waits
	 */
	public record Detail(String detail, double millis, long count) {

		static Detail of(WaitCategory.Detail detail) {
			return new Detail(detail.detail(), TimeBreakdownJson.millis(detail.nanos()), detail.count());
		}

	}

	/**
	 * The container's CPU limit throttled the process around the request (the process's
	 * figures, read from its control group).
	 *
	 * @param periods enforcement periods in which it was throttled
	 * @param millis how long it was throttled
	 * @param overMillis between the two readings these come from, which cover the request
	 * @param text the same in words
	 */
	public record Throttling(long periods, double millis, double overMillis, String text) {

		static Throttling of(TimeBreakdown.Throttling throttling) {
			return (throttling != null)
					? new Throttling(throttling.periods(), TimeBreakdownJson.millis(throttling.nanos()),
							TimeBreakdownJson.millis(throttling.overNanos()), throttling.text(CpuShare::millis))
					: null;
		}

	}

	/**
	 * Round trips to one peer.
	 *
	 * @param peer as the application named it, else {@code host:port}
	 * @param count how many socket reads waited for its answer
	 * @param millis the time they waited
	 * @param perRequest for several requests, round trips per request (to a tenth); else
	 * left out
	 */
	public record RoundTrips(String peer, long count, double millis, @JsonInclude(Include.NON_NULL) Double perRequest) {

		/**
		 * @param requests the requests added up, zero for one request's own
		 */
		static RoundTrips of(TimeBreakdown.RoundTrips trips, long requests) {
			return new RoundTrips(trips.peer(), trips.count(), TimeBreakdownJson.millis(trips.nanos()),
					(requests > 0) ? Math.round(10.0 * trips.perRequest(requests)) / 10.0 : null);
		}

	}

}
