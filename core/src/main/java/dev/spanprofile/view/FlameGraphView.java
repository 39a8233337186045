package dev.spanprofile.view;

import java.util.Map;

/**
 * Something shown as a flame graph, in every {@link ProfileFormat}. One span's or one trace's profile today; a new
 * view (all spans of a name, a comparison) is a new implementation, and the web adapter serves it unchanged.
 */
public interface FlameGraphView {

	/** The tree with the subject's metadata and the engine's state. */
	Map<String, Object> json();

	/** Collapsed stacks, one line per distinct stack. */
	String collapsed();

	/** The self-contained interactive page. */
	String html();

	/** A gzip'd pprof profile. */
	byte[] pprof();

	/** The view in {@code format}: a {@code Map} for JSON, a {@code String} for text and HTML, bytes for pprof. */
	default Object render(ProfileFormat format) {
		return switch (format) {
			case JSON -> json();
			case COLLAPSED -> collapsed();
			case HTML -> html();
			case PPROF -> pprof();
		};
	}

}
