package dev.spanprofile.render.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * The small pictures of the names list, drawn as SVG on the server: where their parts
 * land, and that a table cell escapes what it is given.
 */
class TableChartsTest {

	@Test
	void aBucketWithAValueIsABarAtItsPlaceInTheWindowAndAQuietOneIsNothing() {
		double[] values = new double[60];
		java.util.Arrays.fill(values, -1);
		values[59] = 18;
		List<double[]> bars = rects(Sparkline.svg(values, "p99"), "");
		assertThat(bars).hasSize(1);
		// The last minute: at the right end, full height, not a dot at the left.
		assertThat(bars.get(0)[0]).isGreaterThan(Sparkline.WIDTH - 2.0 * Sparkline.WIDTH / 60);
		assertThat(bars.get(0)[3]).isEqualTo(Sparkline.HEIGHT - 2.0);
		assertThat(Sparkline.svg(values, "p99")).contains("<rect class=\"base\" x=\"0\"")
			.contains("width=\"" + Sparkline.WIDTH + "\" height=\"1\"");
		values[0] = 9;
		List<double[]> two = rects(Sparkline.svg(values, "p99"), "");
		assertThat(two).hasSize(2);
		assertThat(two.get(0)[0]).isLessThan(2);
		assertThat(two.get(0)[3]).isCloseTo(two.get(1)[3] / 2, within(0.1));
	}

	@Test
	void latencyBarsOfOneTableShareALogScale() {
		String fast = LatencyRange.svg(2, 4, 10, 20, 2, 2000, "fast");
		String slow = LatencyRange.svg(200, 400, 1000, 2000, 2, 2000, "slow");
		// p50 at the scale's left end, max at its right; a decade is a third of the
		// width.
		assertThat(rect(fast, "middle")[0]).isZero();
		assertThat(rect(slow, "spread")[0] + rect(slow, "spread")[2]).isCloseTo(LatencyRange.WIDTH, within(0.1));
		assertThat(rect(slow, "middle")[0]).isCloseTo(2 * LatencyRange.WIDTH / 3.0, within(0.1));
		assertThat(rect(slow, "p99")[0] - rect(fast, "p99")[0]).isCloseTo(2 * LatencyRange.WIDTH / 3.0, within(0.2));
		// Figures beyond the scale stay on the picture.
		double[] beyond = rect(LatencyRange.svg(0, 0, 5000, 9000, 2, 2000, "beyond"), "p99");
		assertThat(beyond[0] + beyond[2]).isLessThanOrEqualTo(LatencyRange.WIDTH);
	}

	@Test
	void sharesFillTheBarInProportionAndNeverBeyondIt() {
		String bar = ShareBar.svg(List.of(new ShareBar.Share("socket I/O", 50), new ShareBar.Share("park", 25)),
				"waiting");
		assertThat(rect(bar, "tb-socket-i-o")).containsExactly(0, 0, ShareBar.WIDTH / 2.0, ShareBar.HEIGHT);
		assertThat(rect(bar, "tb-park")).containsExactly(ShareBar.WIDTH / 2.0, 0, ShareBar.WIDTH / 4.0,
				ShareBar.HEIGHT);
		String over = ShareBar.svg(List.of(new ShareBar.Share("socket I/O", 90), new ShareBar.Share("lock", 40),
				new ShareBar.Share("sleep", 5)), "waiting on two threads");
		assertThat(rect(over, "tb-lock")[0] + rect(over, "tb-lock")[2]).isEqualTo(ShareBar.WIDTH);
		assertThat(over).doesNotContain("tb-sleep");
	}

	@Test
	void cellsEscapeTheirTextAndTakeOnlyPlainClassNames() {
		String hostile = "<img src=x onerror=alert(1)>";
		String html = TablePage.titled("t")
			.columns(TablePage.Cell.text("Waiting"))
			.row(List.of(TablePage.Cell.shares(List.of(Map.entry(hostile, 10.0)), hostile, hostile).styled("waiting"),
					TablePage.Cell.number("3").sub(hostile)))
			.render();
		assertThat(html).doesNotContain("<img")
			.contains("&lt;img src=x")
			.contains("<td class=\"waiting\"><svg")
			.contains("<td class=\"num\">3<div class=\"sub\">");
		assertThatIllegalArgumentException().isThrownBy(() -> TablePage.Cell.text("x").styled("a\" onclick=\"x"));
	}

	/** The {@code x, y, width, height} of each rect with the given class. */
	private static List<double[]> rects(String svg, String cssClass) {
		Matcher rect = Pattern
			.compile("<rect " + (cssClass.isEmpty() ? "" : "class=\"" + Pattern.quote(cssClass) + "\" ")
					+ "x=\"([\\d.]+)\" y=\"([\\d.]+)\" width=\"([\\d.]+)\" height=\"([\\d.]+)\"/>")
			.matcher(svg);
		List<double[]> found = new ArrayList<>();
		while (rect.find()) {
			found.add(new double[] { Double.parseDouble(rect.group(1)), Double.parseDouble(rect.group(2)),
					Double.parseDouble(rect.group(3)), Double.parseDouble(rect.group(4)) });
		}
		return found;
	}

	private static double[] rect(String svg, String cssClass) {
		List<double[]> found = rects(svg, cssClass);
		assertThat(found).as("%s in %s", cssClass, svg).hasSize(1);
		return found.get(0);
	}

}
