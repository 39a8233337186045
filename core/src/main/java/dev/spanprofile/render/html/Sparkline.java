package dev.spanprofile.render.html;

import java.util.Locale;

/**
 * A small chart of one value per time bucket as inline SVG, drawn on the server: no
 * script, nothing to load, and the page's policy allows it as markup. Each bucket with a
 * value is a bar from a base line that spans the whole window, so a single busy minute
 * reads as a bar at its place in the window rather than a lone dot, and a quiet minute as
 * a gap rather than a drop to zero.
 */
final class Sparkline {

	static final int WIDTH = 120;

	static final int HEIGHT = 24;

	private Sparkline() {
	}

	/**
	 * @param values one per bucket, oldest first; negative where the bucket has none
	 * @param label what the chart shows, for screen readers and the hover title
	 */
	static String svg(double[] values, String label) {
		double most = 0;
		for (double value : values) {
			most = Math.max(most, value);
		}
		StringBuilder out = new StringBuilder(160 + values.length * 64);
		open(out, "spark", WIDTH, HEIGHT, label);
		out.append("<rect class=\"base\" x=\"0\" y=\"").append(HEIGHT - 1).append("\" width=\"").append(WIDTH);
		out.append("\" height=\"1\"/>");
		double step = (values.length > 0) ? (double) WIDTH / values.length : 0;
		double barWidth = Math.max(1, Math.min(step - 0.5, 8));
		for (int i = 0; i < values.length; i++) {
			if (values[i] < 0) {
				continue;
			}
			double height = Math.max(1.5, (most > 0) ? values[i] / most * (HEIGHT - 2) : 0);
			out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
					i * step + (step - barWidth) / 2, HEIGHT - 1 - height, barWidth, height));
		}
		return out.append("</svg>").toString();
	}

	/**
	 * An inline SVG element's opening, with its label as its accessible name and title.
	 */
	static void open(StringBuilder out, String cssClass, int width, int height, String label) {
		out.append("<svg class=\"")
			.append(cssClass)
			.append("\" width=\"")
			.append(width)
			.append("\" height=\"")
			.append(height)
			.append("\" viewBox=\"0 0 ")
			.append(width)
			.append(' ')
			.append(height)
			.append("\" role=\"img\" aria-label=\"")
			.append(HtmlEscaper.escape(label))
			.append("\"><title>")
			.append(HtmlEscaper.escape(label))
			.append("</title>");
	}

}
