package dev.spanprofile.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The engine's state and where its samples went: the answer to a change of what is
 * sampled, and the head of the span list and of a comparison's graph. A record, so that
 * the keys are its components in their order.
 *
 * @param state what the engine is doing, its keys at the top level
 * @param samples where the samples taken so far went
 */
public record EngineJson(@JsonUnwrapped EngineState state, Samples samples) {

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
