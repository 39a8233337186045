package dev.spanprofile.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The span list's JSON: the engine's state, its keys at the top level as in every
 * response, then the spans, newest first.
 *
 * @param engine the engine's state
 * @param spans the spans listed
 */
public record SpanListJson(@JsonUnwrapped EngineJson engine, List<SpanJson> spans) {
}
