package dev.spanprofile.view;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The engine's state and where its samples went: the answer to a change of what is sampled, and the head of the
 * span list. A record, so that the keys are its components in their order.
 *
 * @param state what the engine is doing, its keys at the top level
 * @param samples where the samples taken so far went
 */
public record EngineJson(@JsonUnwrapped EngineState state, Samples samples) {

	/**
	 * The same keys in the same order as a map, for a body that is still a map and starts with the engine's state
	 * (a span name's views).
	 */
	Map<String, Object> toMap() {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("engine", this.state.engine());
		body.put("event", this.state.event());
		body.put("intervalMillis", this.state.intervalMillis());
		body.put("running", this.state.running());
		if (this.state.problem() != null) {
			body.put("problem", this.state.problem());
		}
		if (this.state.note() != null) {
			body.put("note", this.state.note());
		}
		body.put("rootSpanOnly", this.state.rootSpanOnly());
		Map<String, Object> samples = new LinkedHashMap<>();
		samples.put("attributed", this.samples.attributed());
		samples.put("outsideSpans", this.samples.outsideSpans());
		samples.put("unknown", this.samples.unknown());
		body.put("samples", samples);
		return body;
	}

	/**
	 * Where the samples taken so far went.
	 *
	 * @param attributed samples given to a span
	 * @param outsideSpans samples of threads that ran no tracked span at the time
	 * @param unknown samples whose thread's state was unknown
	 */
	public record Samples(long attributed, long outsideSpans, long unknown) {
	}

}
