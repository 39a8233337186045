package dev.spanprofile.view;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import dev.spanprofile.render.TimeBreakdownJson;

/**
 * The JSON of a span name's merged flame graph: the engine's state, the name and window,
 * the selection when the graph is limited to one, the heatmap a selection is made on, and
 * the tree.
 *
 * @param engine the engine's state, its keys at the top level
 * @param samples samples (or weight) in the graph, in the place the engine's counts take
 * in other bodies
 * @param flameGraphEvent the kind of samples in the graph
 * @param name the span name
 * @param windowSeconds how far back the requests ended
 * @param selection the requests the graph is limited to, its keys at the top level;
 * {@code null} (left out) for every request of the window
 * @param spans the requests merged
 * @param unsampledSpans of {@code spans}, those tracing did not sample
 * @param timeBreakdown where the time of the requests merged went, their parts added up
 * request by request
 * @param heatmap the whole window's heatmap, whatever the selection, so that another one
 * can be made
 * @param flameGraph the tree
 */
public record NameProfileJson(@JsonUnwrapped EngineState engine, long samples, String flameGraphEvent, String name,
		long windowSeconds, @JsonInclude(Include.NON_NULL) @JsonUnwrapped SelectionJson selection, long spans,
		long unsampledSpans, TimeBreakdownJson timeBreakdown, HeatmapJson heatmap,
		Map<String, Object> flameGraph) implements FlameGraphBody {
}
