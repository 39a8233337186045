package dev.spanprofile.render.html;

import java.util.Locale;

/**
 * A small line of one value per time bucket as inline SVG, drawn on the server: no
 * script, nothing to load, and the page's policy allows it as markup. Buckets without a
 * value break the line, so a quiet minute is not drawn as a drop to zero.
 */
final class Sparkline {

	static final int WIDTH = 120;

	static final int HEIGHT = 24;

	private Sparkline() {
	}

	/**
	 * @param values one per bucket, oldest first; negative where the bucket has none
	 * @param label what the line shows, for screen readers and the hover title
	 */
	static String svg(double[] values, String label) {
		double most = 0;
		for (double value : values) {
			most = Math.max(most, value);
		}
		StringBuilder out = new StringBuilder(64 + values.length * 12);
		out.append("<svg class=\"spark\" width=\"")
			.append(WIDTH)
			.append("\" height=\"")
			.append(HEIGHT)
			.append("\" viewBox=\"0 0 ")
			.append(WIDTH)
			.append(' ')
			.append(HEIGHT)
			.append("\" role=\"img\" aria-label=\"")
			.append(HtmlEscaper.escape(label))
			.append("\"><title>")
			.append(HtmlEscaper.escape(label))
			.append("</title>");
		double step = (values.length > 1) ? (WIDTH - 2.0) / (values.length - 1) : 0;
		StringBuilder run = new StringBuilder();
		int points = 0;
		for (int i = 0; i <= values.length; i++) {
			if (i < values.length && values[i] >= 0) {
				double x = 1 + i * step;
				double y = (HEIGHT - 2) - ((most > 0) ? values[i] / most * (HEIGHT - 4) : 0);
				run.append(String.format(Locale.ROOT, "%s%.1f,%.1f", (points > 0) ? " " : "", x, y));
				points++;
				continue;
			}
			if (points == 1) {
				String[] xy = run.toString().split(",");
				out.append("<circle cx=\"").append(xy[0]).append("\" cy=\"").append(xy[1]).append("\" r=\"1.5\"/>");
			}
			else if (points > 1) {
				out.append("<polyline points=\"").append(run).append("\"/>");
			}
			run.setLength(0);
			points = 0;
		}
		return out.append("</svg>").toString();
	}

}
