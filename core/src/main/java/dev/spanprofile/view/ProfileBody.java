package dev.spanprofile.view;

import java.util.Map;

/** The JSON of a {@link ProfileView}: one span's flame graph, or a whole trace's. */
public sealed interface ProfileBody permits SpanProfileJson, TraceProfileJson {

	/** The engine's state, whose keys head the body. */
	EngineState engine();

	/** The kind of samples in the graph. */
	String flameGraphEvent();

	/** Samples (or weight) in the graph. */
	long samples();

	/** The tree: {@code name}, {@code value}, {@code self}, {@code kind} and {@code children} per frame. */
	Map<String, Object> flameGraph();

}
