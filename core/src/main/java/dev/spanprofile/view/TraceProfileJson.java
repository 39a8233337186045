package dev.spanprofile.view;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The JSON of a trace's flame graph: the engine's state, the trace's local root spans,
 * and one tree whose root's children are those spans.
 *
 * @param engine the engine's state, its keys at the top level
 * @param samples samples (or weight) in the graph, in the place the engine's counts take
 * in other bodies
 * @param flameGraphEvent the kind of samples in the graph
 * @param flameGraphUnit what a frame's value counts when it is a weight, not samples
 * @param flameGraphReason why this kind was chosen when none was asked for
 * @param traceId the trace
 * @param spans its local root spans in this process
 * @param flameGraph the tree, one child per local root span
 */
public record TraceProfileJson(@JsonUnwrapped EngineState engine, long samples, String flameGraphEvent,
		@JsonInclude(Include.NON_NULL) String flameGraphUnit, @JsonInclude(Include.NON_NULL) String flameGraphReason,
		String traceId, List<SpanJson> spans, Map<String, Object> flameGraph) implements ProfileBody {
}
