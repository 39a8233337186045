package dev.spanprofile.view;

/**
 * What one route of the endpoint shows: a flame graph, served in every
 * {@link ProfileFormat}, or a table of links, served as JSON or a page. Sealed so that
 * the web adapter hands any view to {@link #render} and the compiler knows every kind
 * there is; a view that cannot take a format says so with a {@link ViewException}.
 */
public sealed interface View permits FlameGraphView, TableView, StartupView, FirstRequestsView {

	/**
	 * The view in {@code format}: a JSON body, a {@code String} for text and HTML, bytes
	 * for pprof.
	 * @throws ViewException (bad request) for a format this kind of view is not served in
	 */
	Object render(ProfileFormat format);

}
