package dev.spanprofile.render.html;

import java.util.Map;

/**
 * The section of a span name's page that draws its latency heatmap: a canvas its own
 * script paints from an inert JSON block, where dragging a rectangle opens the flame
 * graph of the requests in it. The script comes with the section, so the flame graph's
 * script knows nothing of it.
 */
final class HeatmapHtml {

	private HeatmapHtml() {
	}

	/**
	 * @param heatmap the name's heatmap as served in its JSON
	 * @param selection the selection the graph shows ({@code from}, {@code to},
	 * {@code minDurationMillis}, {@code maxDurationMillis}), or {@code null} for every
	 * request
	 * @param hrefs {@code name}: the name's page, relative to this one, that a
	 * selection's parameters are appended to; {@code bucketMillis}: how long a column is
	 */
	static String render(Map<String, Object> heatmap, Map<String, Object> selection, Map<String, Object> hrefs) {
		StringBuilder data = new StringBuilder(4096);
		JsonText json = new JsonText(data);
		json.raw('{').key("heatmap").value(heatmap).raw(',').key("links").value(hrefs);
		if (selection != null) {
			json.raw(',').key("selection").value(selection);
		}
		json.raw('}');
		StringBuilder out = new StringBuilder(data.length() + PageAssets.HEATMAP_SCRIPT.length() + 1024);
		out.append("<section id=\"heatmap\" class=\"heatmap\" aria-labelledby=\"heatmap-title\">")
			.append("<div class=\"timeline-head\"><h2 id=\"heatmap-title\">Latency heatmap</h2>")
			.append("<span class=\"timeline-help\">Minutes across, durations up; darker cells hold more requests, ")
			.append("red corners mark failed ones. Drag a rectangle for the flame graph of its requests.</span>");
		if (selection != null) {
			out.append("<a id=\"heatmap-compare\" href=\"#\">Compare with the rest</a>")
				.append("<a id=\"heatmap-clear\" href=\"#\">All requests</a>");
		}
		out.append("</div>")
			.append("<canvas id=\"heatmap-canvas\" role=\"img\" aria-label=\"Latency heatmap: requests by minute and ")
			.append("duration\"></canvas>")
			.append("<p id=\"heatmap-status\" class=\"status\" aria-live=\"polite\"></p>")
			.append("<script type=\"application/json\" id=\"heatmap-data\">")
			.append(data)
			.append("</script><script type=\"module\">")
			.append(PageAssets.HEATMAP_SCRIPT)
			.append("</script></section>");
		return out.toString();
	}

}
