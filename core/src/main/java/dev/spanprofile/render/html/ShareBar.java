package dev.spanprofile.render.html;

import java.util.List;
import java.util.Locale;

/**
 * Shares of a whole by category as a small inline SVG bar, each category in the colour
 * the flame graph page's time breakdown gives it: how much of a name's time went to
 * waiting, and on what, before anyone reads the numbers. Shares beyond a full bar (waits
 * on several threads of one request at once) fill it.
 */
final class ShareBar {

	static final int WIDTH = 120;

	static final int HEIGHT = 10;

	private ShareBar() {
	}

	/**
	 * One category's part: its name (coloured by its slug) and its percent of the whole.
	 */
	record Share(String category, double percent) {
	}

	static String svg(List<Share> shares, String label) {
		StringBuilder out = new StringBuilder(256 + shares.size() * 96);
		Sparkline.open(out, "shares", WIDTH, HEIGHT, label);
		out.append("<rect class=\"track\" x=\"0\" y=\"0\" width=\"")
			.append(WIDTH)
			.append("\" height=\"")
			.append(HEIGHT)
			.append("\"/>");
		double x = 0;
		for (Share share : shares) {
			double width = Math.min(WIDTH - x, share.percent() / 100 * WIDTH);
			if (width <= 0) {
				break;
			}
			out.append(String.format(Locale.ROOT,
					"<rect class=\"tb-%s\" x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"%d\"/>",
					TimeBreakdownHtml.slug(share.category()), x, width, HEIGHT));
			x += width;
		}
		return out.append("</svg>").toString();
	}

}
