package dev.spanprofile.view;

import java.util.Map;

/**
 * The JSON of a {@link FlameGraphView}: one span's or one trace's graph
 * ({@link ProfileBody}), a span name's merged requests, or a comparison. Each is a record
 * whose components are its keys in their order.
 */
public sealed interface FlameGraphBody permits ProfileBody, NameProfileJson, NameDiffJson, StartupStepJson {

	/** The kind of samples in the graph. */
	String flameGraphEvent();

	/**
	 * The tree: {@code name}, {@code value}, {@code self}, {@code kind} and
	 * {@code children} per frame. A map, as {@link dev.spanprofile.render.FlameGraphTree}
	 * writes it for every kind of graph: a comparison's nodes add its second column's
	 * keys, a trace's span nodes their span's id.
	 */
	Map<String, Object> flameGraph();

}
