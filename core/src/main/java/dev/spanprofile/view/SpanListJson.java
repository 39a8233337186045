package dev.spanprofile.view;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The span list's JSON: the engine's state, its keys at the top level as in every
 * response, the captures in progress (left out when none runs), then the spans, newest
 * first.
 *
 * @param engine the engine's state
 * @param captures the captures of on-demand profiling in progress, each with its
 * {@code name}, {@code count}, {@code captured} so far, {@code endsAt} and
 * {@code secondsLeft}
 * @param spans the spans listed
 */
public record SpanListJson(@JsonUnwrapped EngineJson engine,
		@JsonInclude(Include.NON_EMPTY) List<Map<String, Object>> captures, List<SpanJson> spans) {
}
