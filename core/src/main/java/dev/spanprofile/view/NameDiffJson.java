package dev.spanprofile.view;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import dev.spanprofile.render.TimeBreakdownJson;

/**
 * The JSON of a differential flame graph: the engine's state and where its samples went
 * (a comparison has two sides, so no one count of its own), what is compared with what,
 * and the tree with both sides' values per frame.
 *
 * @param engine the engine's state and sample counts, their keys at the top level
 * @param flameGraphEvent the kind of samples compared
 * @param name the span name
 * @param spanId the one span compared with the typical requests, or {@code null} (left
 * out) when a name's slow requests are
 * @param durationMillis that span's duration, or {@code null} (left out)
 * @param windowSeconds how far back the requests ended
 * @param comparison {@code typical} (slow requests, or one, against typical ones) or
 * {@code rest} (a heatmap selection against the name's other requests)
 * @param thresholdMillis the duration from which a request is slow
 * @param slowSpans requests on the examined side
 * @param typicalSpans requests on the other side
 * @param largestDifference where the examined side waits the most longer, for graphs of
 * waits and locks; else {@code null}, left out
 * @param slowBreakdown where the examined side's time went, its requests' parts added up;
 * left out where it is one span (its own page has its breakdown)
 * @param typicalBreakdown where the other side's time went, added up
 * @param difference what the examined side spends more on per request, in a sentence and
 * term by term; left out where either side has no request (or is one span)
 * @param flameGraph the tree
 */
public record NameDiffJson(@JsonUnwrapped EngineJson engine, String flameGraphEvent, String name,
		@JsonInclude(Include.NON_NULL) String spanId, @JsonInclude(Include.NON_NULL) Double durationMillis,
		long windowSeconds, String comparison, double thresholdMillis, long slowSpans, long typicalSpans,
		@JsonInclude(Include.NON_NULL) LargestDifferenceJson largestDifference,
		@JsonInclude(Include.NON_NULL) TimeBreakdownJson slowBreakdown,
		@JsonInclude(Include.NON_NULL) TimeBreakdownJson typicalBreakdown,
		@JsonInclude(Include.NON_NULL) BreakdownDifferenceJson difference,
		Map<String, Object> flameGraph) implements FlameGraphBody {
}
