package dev.spanprofile.render.html;

import java.util.List;

/** Markup pieces the pages share; every value is escaped here. */
final class Fragments {

	private Fragments() {
	}

	static String facts(List<PageHeader.Fact> facts) {
		StringBuilder out = new StringBuilder("<dl class=\"facts\">");
		for (PageHeader.Fact fact : facts) {
			out.append("<div><dt>")
				.append(HtmlEscaper.escape(fact.label()))
				.append("</dt><dd>")
				.append(HtmlEscaper.escape(fact.value()))
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

	static String links(String cssClass, List<PageHeader.Link> links) {
		if (links.isEmpty()) {
			return "";
		}
		StringBuilder out = new StringBuilder("<ul class=\"").append(cssClass).append("\">");
		for (PageHeader.Link link : links) {
			out.append("<li><a href=\"")
				.append(HtmlEscaper.escape(link.href()))
				.append("\">")
				.append(HtmlEscaper.escape(link.label()))
				.append("</a></li>");
		}
		return out.append("</ul>").toString();
	}

}
