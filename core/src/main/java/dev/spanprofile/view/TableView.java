package dev.spanprofile.view;

/**
 * A list that links to flame graphs (the span names, the stored requests behind one
 * frame): JSON for programs, a table page for a browser, and no stacks of its own to
 * collapse or export.
 */
public sealed interface TableView extends View permits NameListView, FrameSpansView {

	/** The list as a JSON body, a record that Jackson writes as it is. */
	TableBody json();

	/** The sortable table page. */
	String html();

	@Override
	default Object render(ProfileFormat format) {
		return switch (format) {
			case JSON -> json();
			case HTML -> html();
			default ->
				throw ViewException.badRequest("This list is served as json or html, not " + format.parameterValue());
		};
	}

}
