package dev.spanprofile.render.html;

import java.util.Locale;

/**
 * A name's latency as a small inline SVG bar on a log scale that every row of the table
 * shares: a thin line from the median to the maximum, a thick part from the median to the
 * 90th percentile (the typical requests), and a mark at the 99th. Rows compare at a
 * glance: a bar further right is slower, a longer thin tail is a wider spread.
 */
final class LatencyRange {

	static final int WIDTH = 120;

	static final int HEIGHT = 14;

	private LatencyRange() {
	}

	/**
	 * @param p50 the median, in milliseconds, as the other figures
	 * @param low the scale's left end (the fastest median of the table)
	 * @param high the scale's right end (the slowest maximum of the table)
	 * @param label the figures in words, for screen readers and the hover title
	 */
	static String svg(double p50, double p90, double p99, double max, double low, double high, String label) {
		Scale scale = new Scale(low, high);
		double x50 = scale.x(p50);
		double x90 = Math.max(scale.x(p90), x50);
		double x99 = scale.x(p99);
		double xMax = Math.max(scale.x(max), x50);
		StringBuilder out = new StringBuilder(512);
		Sparkline.open(out, "range", WIDTH, HEIGHT, label);
		out.append("<rect class=\"track\" x=\"0\" y=\"6\" width=\"").append(WIDTH).append("\" height=\"2\"/>");
		rect(out, "spread", x50, 5, Math.max(1, xMax - x50), 4);
		rect(out, "middle", x50, 3, Math.max(2, x90 - x50), 8);
		rect(out, "p99", Math.min(WIDTH - 2, Math.max(0, x99 - 1)), 0, 2, HEIGHT);
		return out.append("</svg>").toString();
	}

	private static void rect(StringBuilder out, String cssClass, double x, double y, double width, double height) {
		out.append(
				String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
						cssClass, x, y, width, height));
	}

	/** Milliseconds to pixels on a log scale; figures outside it sit at its ends. */
	private record Scale(double low, double high) {

		Scale {
			low = Math.max(low, 0.001);
			high = Math.max(high, low * 10);
		}

		double x(double millis) {
			double share = (Math.log(Math.max(millis, this.low)) - Math.log(this.low))
					/ (Math.log(this.high) - Math.log(this.low));
			return Math.min(1, share) * WIDTH;
		}

	}

}
