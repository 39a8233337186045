package dev.spanprofile.view;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The page a browser gets on a span name's own route ({@code /names/{name}}): it moves on
 * to the name's page at {@code /names?name=}. That page's links, and the scripts' links
 * to spans, are relative to the endpoint's own directory, which the name's route is one
 * or more segments below; an actuator operation cannot answer with a {@code Location}
 * header, so the move is the page's own.
 */
public final class NamePageRedirect {

	private NamePageRedirect() {
	}

	/**
	 * @param query the name's view as asked for on its route
	 * @param segments how many path segments the name took after {@code names/}
	 */
	public static String html(NamesQuery query, int segments) {
		String href = "../".repeat(Math.max(1, segments)) + pageHref(query);
		// Encoded parts, instants and numbers only: nothing in the address needs escaping
		// but the ampersands.
		String attribute = href.replace("&", "&amp;");
		return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
				+ "<meta http-equiv=\"refresh\" content=\"0; url=" + attribute + "\">" + "<title>spanprofile: "
				+ Echo.of(query.name()) + "</title></head>\n" + "<body><p><a href=\"" + attribute
				+ "\">The profile of this span name</a></p></body></html>\n";
	}

	/** The query form of the same view, relative to the endpoint's directory. */
	static String pageHref(NamesQuery query) {
		StringBuilder href = new StringBuilder(NameViews.nameHref(query.name(), query.window()));
		href.append(NameViews.selectionQuery(query));
		if (query.compare()) {
			href.append("&compare=").append(query.rest() ? "rest" : "typical");
		}
		if (query.frame() != null) {
			href.append("&frame=").append(URLEncoder.encode(query.frame(), StandardCharsets.UTF_8));
		}
		return href.append("&event=").append(query.kind().id()).append("&format=html").toString();
	}

}
