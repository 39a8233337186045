package dev.spanprofile.render.html;

import java.util.List;
import java.util.Map;

/**
 * The section of a span's page that draws its request's timeline: a canvas the page's
 * script paints from an inert JSON block (the timeline as the endpoint's JSON has it),
 * with a link back to the whole request when the graph shows a stretch only.
 */
final class TimelineHtml {

	private TimelineHtml() {
	}

	/**
	 * @param timeline the span's timeline as served in its JSON
	 * @param stretch the stretch the graph shows ({@code [fromMillis, toMillis]}), or
	 * {@code null}
	 * @param wholeHref the page of the whole request, relative to this one
	 */
	static String render(Map<String, Object> timeline, double[] stretch, String wholeHref) {
		StringBuilder data = new StringBuilder(4096);
		JsonText json = new JsonText(data);
		json.raw('{').key("timeline").value(timeline);
		if (stretch != null) {
			json.raw(',').key("stretch").value(List.of(stretch[0], stretch[1]));
		}
		json.raw('}');
		StringBuilder out = new StringBuilder(data.length() + 1024);
		out.append("<section id=\"timeline\" class=\"timeline\" aria-labelledby=\"timeline-title\">")
			.append("<div class=\"timeline-head\"><h2 id=\"timeline-title\">Timeline</h2>")
			.append("<span class=\"timeline-help\">Threads that worked for this request, CPU samples as ticks, ")
			.append("waits as bars. Drag across it for the flame graph of that stretch.</span>");
		if (stretch != null) {
			out.append("<a id=\"timeline-whole\" href=\"")
				.append(HtmlEscaper.escape(wholeHref))
				.append("\">Whole request</a>");
		}
		out.append("</div>")
			.append("<canvas id=\"timeline-canvas\" role=\"img\" aria-label=\"Timeline of this request\"></canvas>")
			.append("<p id=\"timeline-status\" class=\"status\" aria-live=\"polite\"></p>")
			.append("<script type=\"application/json\" id=\"timeline-data\">")
			.append(data)
			.append("</script></section>");
		return out.toString();
	}

}
