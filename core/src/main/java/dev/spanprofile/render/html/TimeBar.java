package dev.spanprofile.render.html;

import java.util.Locale;

/**
 * One bar on a time axis shared by a table's rows: where a step of the start ran, from
 * and to as fractions of the whole start.
 */
final class TimeBar {

	private static final int WIDTH = 400;

	private static final int HEIGHT = 10;

	private TimeBar() {
	}

	static String svg(double from, double to, String label) {
		double start = clamp(from) * WIDTH;
		double width = Math.max(1, (clamp(to) - clamp(from)) * WIDTH);
		return String.format(Locale.ROOT,
				"<svg class=\"timebar\" width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"%s\"><title>%s</title>"
						+ "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#eee\"/>"
						+ "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\" fill=\"#d9534f\"/></svg>",
				WIDTH, HEIGHT, HtmlEscaper.escape(label), HtmlEscaper.escape(label), WIDTH, HEIGHT, start, width,
				HEIGHT);
	}

	private static double clamp(double fraction) {
		return Math.max(0, Math.min(1, fraction));
	}

}
