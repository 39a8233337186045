package dev.spanprofile.render.html;

import java.util.List;

/** Markup pieces the two pages share; every value is escaped here. */
final class Fragments {

	private Fragments() {
	}

	static String facts(List<String[]> facts) {
		StringBuilder out = new StringBuilder("<dl class=\"facts\">");
		for (String[] fact : facts) {
			out.append("<div><dt>")
				.append(HtmlEscaper.escape(fact[0]))
				.append("</dt><dd>")
				.append(HtmlEscaper.escape(fact[1]))
				.append("</dd></div>");
		}
		return out.append("</dl>").toString();
	}

	static String notes(List<String> notes) {
		StringBuilder out = new StringBuilder();
		for (String note : notes) {
			out.append("<p class=\"note\" role=\"note\">").append(HtmlEscaper.escape(note)).append("</p>");
		}
		return out.toString();
	}

	static String links(String cssClass, List<String[]> links) {
		if (links.isEmpty()) {
			return "";
		}
		StringBuilder out = new StringBuilder("<ul class=\"").append(cssClass).append("\">");
		for (String[] link : links) {
			out.append("<li><a href=\"")
				.append(HtmlEscaper.escape(link[1]))
				.append("\">")
				.append(HtmlEscaper.escape(link[0]))
				.append("</a></li>");
		}
		return out.append("</ul>").toString();
	}

}
