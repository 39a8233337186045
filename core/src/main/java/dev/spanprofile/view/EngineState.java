package dev.spanprofile.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

/**
 * What the engine is doing, whose keys head every JSON response: the span list and the
 * engine status follow it with the engine's sample counts ({@link EngineJson}), a flame
 * graph with its own count under the same key.
 *
 * @param engine the sampling engine, e.g. {@code async-profiler}
 * @param event the event actually sampled
 * @param intervalMillis the sampling interval
 * @param running whether samples are being taken now
 * @param problem why not, when not running; {@code null} otherwise, and then left out
 * @param note what to know about the results (a fallback, a limit of the engine), or
 * {@code null}, left out
 * @param rootSpanOnly whether samples go to the request's local root span only
 */
public record EngineState(String engine, String event, double intervalMillis, boolean running,
		@JsonInclude(Include.NON_NULL) String problem, @JsonInclude(Include.NON_NULL) String note,
		boolean rootSpanOnly) {

	/**
	 * The same state with another note: a body that has more to say than the engine does.
	 */
	EngineState withNote(String note) {
		return new EngineState(this.engine, this.event, this.intervalMillis, this.running, this.problem, note,
				this.rootSpanOnly);
	}

}
