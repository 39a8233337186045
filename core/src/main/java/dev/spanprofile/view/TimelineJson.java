package dev.spanprofile.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

/**
 * One request's timeline as its JSON and its page carry it ({@link RequestTimeline}): a
 * lane per thread, each sample an entry on its lane. Times in milliseconds from the
 * span's start, to the microsecond.
 *
 * @param durationMillis the span's duration (so far, when running)
 * @param inFlight whether it is still running
 * @param lanes the threads that worked for it, in the order they joined
 * @param entries its samples, by start time
 * @param truncated whether later samples were dropped from the timeline
 * @param droppedSamples how many, when some were; else {@code null}, left out
 * @param note what that means, when some were; else {@code null}, left out
 * @param partialWaits how a wait that overlaps a stretch counts
 */
public record TimelineJson(double durationMillis, boolean inFlight, List<Lane> lanes, List<Entry> entries,
		boolean truncated, @JsonInclude(Include.NON_NULL) Long droppedSamples,
		@JsonInclude(Include.NON_NULL) String note, String partialWaits) {

	/**
	 * A thread that worked for the request.
	 *
	 * @param thread its name, or {@code thread <id>} when it had none
	 * @param threadId its id
	 */
	public record Lane(String thread, long threadId) {
	}

	/**
	 * A sample on the timeline: a moment for CPU, a stretch for a wait.
	 *
	 * @param lane the index of its thread's lane
	 * @param kind the kind of sample ({@code cpu}, {@code wall}, {@code wait}, ...)
	 * @param startMillis when it began
	 * @param endMillis when it was taken or the wait ended
	 * @param label what a wait was on; {@code null}, left out, for other samples
	 */
	public record Entry(int lane, String kind, double startMillis, double endMillis,
			@JsonInclude(Include.NON_NULL) String label) {
	}

}
