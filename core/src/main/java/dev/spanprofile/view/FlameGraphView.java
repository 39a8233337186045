package dev.spanprofile.view;

/**
 * Something shown as a flame graph, in every {@link ProfileFormat}: one span's or one
 * trace's profile, a span name's merged requests, or a comparison. Sealed: a new kind of
 * graph is added here, and the web adapter serves it unchanged.
 */
public sealed interface FlameGraphView extends View
		permits ProfileView, NameProfileView, NameDiffView, StartupStepView {

	/**
	 * The tree with the subject's metadata and the engine's state, a record that Jackson
	 * writes as it is.
	 */
	FlameGraphBody json();

	/** Collapsed stacks, one line per distinct stack. */
	String collapsed();

	/** The self-contained interactive page. */
	String html();

	/** A gzip'd pprof profile. */
	byte[] pprof();

	@Override
	default Object render(ProfileFormat format) {
		return switch (format) {
			case JSON -> json();
			case COLLAPSED -> collapsed();
			case HTML -> html();
			case PPROF -> pprof();
		};
	}

}
