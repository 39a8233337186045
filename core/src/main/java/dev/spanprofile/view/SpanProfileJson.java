package dev.spanprofile.view;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The JSON of one span's flame graph: the engine's state, which graph it is, the span, where its time went, and
 * the tree. A key that does not apply to this span or this kind of graph is left out. The parts below the top
 * level (the time breakdown, the timeline, the tree) are still maps.
 *
 * @param engine the engine's state, its keys at the top level
 * @param samples samples (or weight) in the graph, in the place the engine's counts take in other bodies
 * @param flameGraphEvent the kind of samples in the graph
 * @param flameGraphUnit what a frame's value counts when it is a weight, not samples
 * @param flameGraphReason why this kind was chosen when none was asked for
 * @param span the span asked for
 * @param attributedTo the local root whose graph this is, when samples go to local roots only
 * @param note what that means, when the engine has no note of its own to carry it
 * @param lockWaits how many lock waits make up a graph of lock waits
 * @param waits how many waits make up a graph of waits
 * @param cpuMillis the CPU time the span's samples stand for, when CPU is sampled
 * @param profilerSamples CPU samples that caught the profiler's own code on the request's threads, left out of the
 * graph
 * @param timeBreakdown where the span's time went
 * @param emptyProfile why the graph is empty, when it is
 * @param stretch the stretch of the span's life the graph is limited to
 * @param timeline the request's timeline
 * @param flameGraph the tree
 */
public record SpanProfileJson(@JsonUnwrapped EngineState engine, long samples, String flameGraphEvent,
		@JsonInclude(Include.NON_NULL) String flameGraphUnit, @JsonInclude(Include.NON_NULL) String flameGraphReason,
		SpanJson span, @JsonInclude(Include.NON_NULL) String attributedTo,
		@JsonInclude(Include.NON_NULL) String note, @JsonInclude(Include.NON_NULL) Long lockWaits,
		@JsonInclude(Include.NON_NULL) Long waits, @JsonInclude(Include.NON_NULL) Double cpuMillis,
		@JsonInclude(Include.NON_NULL) Long profilerSamples, Map<String, Object> timeBreakdown,
		@JsonInclude(Include.NON_NULL) Map<String, Object> emptyProfile,
		@JsonInclude(Include.NON_NULL) Map<String, Object> stretch, Map<String, Object> timeline,
		Map<String, Object> flameGraph) implements ProfileBody {
}
