package dev.spanprofile.view;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One step of the start with the flame graph of its own samples of one kind.
 *
 * @param step the step's figures
 * @param flameGraphEvent the kind of samples in the graph
 * @param flameGraph the tree, as every graph's JSON has it
 */
public record StartupStepJson(@JsonUnwrapped EngineJson engine, StartupJson.Step step, String flameGraphEvent,
		Map<String, Object> flameGraph) implements FlameGraphBody {
}
