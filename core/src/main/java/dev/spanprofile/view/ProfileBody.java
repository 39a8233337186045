package dev.spanprofile.view;

/** The JSON of a {@link ProfileView}: one span's flame graph, or a whole trace's. */
public sealed interface ProfileBody extends FlameGraphBody permits SpanProfileJson, TraceProfileJson {

	/** The engine's state, whose keys head the body. */
	EngineState engine();

	/** Samples (or weight) in the graph. */
	long samples();

}
