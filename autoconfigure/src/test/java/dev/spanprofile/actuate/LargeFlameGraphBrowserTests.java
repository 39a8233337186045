package dev.spanprofile.actuate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.html.FlameGraphModel;
import dev.spanprofile.render.html.FlameGraphPage;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.interactions.Actions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 50,000-frame page, saved to disk and opened from there (as a page downloaded from a closed network would be):
 * how long it takes to draw, redraw after a zoom and search, in a real headless Chromium. Frame names include markup
 * that must stay text.
 */
class LargeFlameGraphBrowserTests {

	private static final String HOSTILE = "</script><script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\">";

	private static Chromium chromium;

	@BeforeAll
	static void startBrowser() throws Exception {
		chromium = Chromium.start();
	}

	@AfterAll
	static void stopBrowser() throws Exception {
		if (chromium != null) {
			chromium.close();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void aFiftyThousandFrameProfileLoadsZoomsAndSearchesQuickly() throws Exception {
		FrameTable frames = new FrameTable();
		StackTree tree = new StackTree();
		Random random = new Random(42);
		int hostile = frames.intern("com.example.Evil." + HOSTILE, FrameKind.JAVA);
		tree.add(new int[] { frames.intern("java.lang.Thread.run", FrameKind.JAVA), hostile }, 5);
		while (tree.nodeCount() < 50_000) {
			int depth = 10 + random.nextInt(50);
			int[] stack = new int[depth];
			for (int level = 0; level < depth; level++) {
				String pkg = (level < 4) ? "java.util.concurrent" : (level < 20) ? "org.springframework.layer" + level
						: "com.example.service" + (level % 7);
				stack[level] = frames.intern(pkg + ".Type" + random.nextInt(level < 4 ? 2 : 5) + ".method"
						+ random.nextInt(3), FrameKind.JAVA);
			}
			tree.add(stack, 1 + random.nextInt(20));
		}
		FlameGraphModel model = FlameGraphModel.builder("GET /big", frames, new FrameClassifier(List.of("com.example")))
			.add(tree)
			.build();
		assertThat(model.nodeCount()).isGreaterThanOrEqualTo(50_000);
		String html = FlameGraphPage.of(model).title("GET /big " + HOSTILE).sampling("cpu", 10).render();
		Path file = Path.of("target", "large-flame-graph.html").toAbsolutePath();
		Files.writeString(file, html, StandardCharsets.UTF_8);

		chromium.open(file.toUri().toString(), "!!(window.spanprofile && window.spanprofile.state().readyMillis > 0)");
		double ready = ((Number) chromium.script(
				"return performance.getEntriesByName('spanprofile-ready')[0].startTime")).doubleValue();
		Map<String, Object> state = (Map<String, Object>) chromium.script("return window.spanprofile.state()");
		assertThat(((Number) state.get("nodes")).intValue()).isEqualTo(model.nodeCount());

		// Zoom into the widest frame two levels down, and time the redraw.
		Map<String, Object> target = (Map<String, Object>) chromium.script(
				"return window.spanprofile.frameRect('java.util.concurrent.Type')");
		var canvas = chromium.driver.findElement(By.id("flame"));
		int x = (int) Math.round(((Number) target.get("x")).doubleValue() + ((Number) target.get("width")).doubleValue() / 2
				- canvas.getRect().getWidth() / 2.0);
		int y = (int) Math.round(((Number) target.get("y")).doubleValue() + 8 - canvas.getRect().getHeight() / 2.0);
		new Actions(chromium.driver).moveToElement(canvas, x, y).click().perform();
		Map<String, Object> zoomed = (Map<String, Object>) chromium.script("return window.spanprofile.state()");
		assertThat(((Number) zoomed.get("zoomDepth")).intValue()).isPositive();
		double zoomDraw = ((Number) zoomed.get("lastDrawMillis")).doubleValue();
		double fullDraw = ((Number) chromium.script("var t = performance.now(); window.dispatchEvent(new Event('resize'));"
				+ "document.getElementById('reset').click(); return performance.now() - t;")).doubleValue();
		double search = ((Number) chromium.script("var input = document.getElementById('search');"
				+ "var t = performance.now(); input.value = 'service3|layer1[0-9]';"
				+ "input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));"
				+ "return performance.now() - t;")).doubleValue();
		assertThat((String) chromium.script("return window.spanprofile.state().match")).startsWith("Matched:");
		double bottomUp = ((Number) chromium.script("var t = performance.now();"
				+ "document.getElementById('view-bottom-up').click(); return performance.now() - t;")).doubleValue();

		System.out.printf("50k-frame page (%d nodes, %d KiB): ready %.0f ms after navigation, zoomed redraw %.1f ms, "
				+ "reset+relayout %.1f ms, regex search with zoom %.1f ms, bottom-up build+draw %.0f ms%n",
				model.nodeCount(), html.length() / 1024, ready, zoomDraw, fullDraw, search, bottomUp);
		// Bounds with room for a busy 2-core CI machine; the numbers measured are printed above.
		assertThat(ready).isLessThan(5000);
		assertThat(zoomDraw).isLessThan(250);
		assertThat(search).isLessThan(1500);

		// Markup in names stayed text: nothing ran, and the name is there to be found.
		assertThat(chromium.script("return window.__pwned === undefined")).isEqualTo(true);
		assertThat(chromium.driver.findElement(By.id("title")).getText()).contains("<img src=x onerror=");
		assertThat(chromium.script("return JSON.parse(document.getElementById('profile-data').textContent)"
				+ ".names.some(function (n) { return n.indexOf('</script><script>') >= 0; })")).isEqualTo(true);
		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

}
