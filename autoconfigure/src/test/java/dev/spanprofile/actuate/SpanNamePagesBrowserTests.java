package dev.spanprofile.actuate;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The span-name pages in a real headless Chromium: from the index to the list of names,
 * to a name's merged flame graph, from one of its frames to the stored requests with
 * samples there, and the slow-versus-typical page with the slow-only method drawn red;
 * the span list, the names and a graph on a phone's screen. Screenshots land in
 * {@code target/screenshots}.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class SpanNamePagesBrowserTests {

	private static final String FLAME_READY = "!!(window.spanprofile && window.spanprofile.state().readyMillis > 0)";

	private static final String NAME = "http get /owners/{ownerId}";

	private static Chromium chromium;

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

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
	void fromTheIndexToANameToItsSlowRequests() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		for (int id = 1; id <= 20; id++) {
			client.get("/owners/" + id, "text/plain");
		}
		String nameQuery = "/actuator/spanprofile/names?name=" + URLEncoder.encode(NAME, StandardCharsets.UTF_8);
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			this.profiler.collectNow();
			return ((Number) client.json(nameQuery + "&format=json").get("spans")).longValue() == 20;
		});

		chromium.open(client.url("/actuator/spanprofile"), "document.readyState === 'complete'");
		chromium.driver.findElement(By.id("names-link")).click();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().contains("/names"));
		WebElement row = chromium.driver.findElement(By.linkText(NAME));
		assertThat(chromium.driver.findElement(By.id("table")).getText()).contains("20");
		chromium.screenshot("names.png");
		row.click();
		chromium.waitUntil(() -> Boolean.TRUE.equals(chromium.script("return " + FLAME_READY)));
		assertThat(chromium.driver.findElement(By.id("title")).getText()).contains(NAME);
		// Where the 20 requests' time went, added up, above the graph, its bar sized by
		// the page's script.
		WebElement breakdown = chromium.driver.findElement(By.id("breakdown"));
		assertThat(breakdown.findElement(By.tagName("h2")).getText()).contains(" of 20 requests went (");
		assertThat(breakdown.getLocation().getY())
			.isLessThan(chromium.driver.findElement(By.id("flame")).getLocation().getY());
		assertThat(chromium.script("return document.querySelector('#time-bar .seg').style.width")).asString()
			.endsWith("%");

		// A click on the slow-only frame offers the requests with samples in it: the two
		// slow ones. The breakdown above pushes the graph down: it is brought into view
		// first, so that the click lands where the frame is drawn.
		WebElement canvas = chromium.driver.findElement(By.id("flame"));
		chromium.script("arguments[0].scrollIntoView({ block: 'start' })", canvas);
		Map<String, Object> slow = chromium.frameRect("loadVisitHistorySlowly");
		new Actions(chromium.driver)
			.moveToElement(canvas, Chromium.offsetX(canvas, slow), Chromium.offsetY(canvas, slow))
			.click()
			.perform();
		WebElement frameSpans = chromium.driver.findElement(By.id("frame-spans"));
		chromium.waitUntil(frameSpans::isDisplayed);
		assertThat(frameSpans.getText()).contains("loadVisitHistorySlowly");
		chromium.screenshot("name-flamegraph.png");
		frameSpans.click();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().contains("frame="));
		// The slow requests, those that ran the method through this call path
		// (reflection's accessor changes after the first calls, so the two may reach it
		// through different frames).
		List<String> slowest = ((List<String>) ((List<Map<String, Object>>) client.json("/actuator/spanprofile/names")
			.get("names")).stream()
			.filter((entry) -> NAME.equals(entry.get("name")))
			.findFirst()
			.orElseThrow()
			.get("slowest")).subList(0, 2);
		List<String> listed = chromium.driver.findElements(By.cssSelector("#table tbody tr td:first-child a"))
			.stream()
			.map(WebElement::getText)
			.toList();
		assertThat(listed).isNotEmpty().isSubsetOf(slowest);

		// Slow versus typical: the slow-only method is drawn red (more per request on the
		// slow side).
		chromium.open(client.url(nameQuery + "&compare=typical&format=html"), FLAME_READY);
		// Each side's requests added up, and the sentence saying what the slow ones spend
		// more on.
		assertThat(chromium.driver.findElement(By.id("breakdown-examined")).getText())
			.contains("Slow requests: where the")
			.contains(" of 2 requests went");
		assertThat(chromium.driver.findElement(By.id("breakdown-compared")).getText())
			.contains("Typical requests: where the")
			.contains(" of 18 requests went");
		assertThat(chromium.driver.findElement(By.cssSelector("#breakdown-examined .difference")).getText())
			.startsWith("slow requests take ")
			.contains(" more: +");
		assertThat(chromium.script("return document.querySelector('#time-bar-compared .seg').style.width")).asString()
			.endsWith("%");
		Map<String, Object> diffFrame = chromium.frameRect("loadVisitHistorySlowly");
		// Top-left corner of the frame: its fill, away from its label.
		List<Number> pixel = (List<Number>) chromium.script(
				"return window.spanprofile.pixel(arguments[0], arguments[1])",
				((Number) diffFrame.get("x")).doubleValue() + 1, ((Number) diffFrame.get("y")).doubleValue() + 1);
		assertThat(pixel.get(0).intValue()).as("red of %s", pixel).isGreaterThan(pixel.get(2).intValue() + 40);
		canvas = chromium.driver.findElement(By.id("flame"));
		// Both sides' breakdowns and the sentence above push the graph down.
		chromium.scrollToFrame(canvas, diffFrame);
		new Actions(chromium.driver)
			.moveToElement(canvas, Chromium.offsetX(canvas, diffFrame), Chromium.offsetY(canvas, diffFrame))
			.perform();
		WebElement tooltip = chromium.driver.findElement(By.id("tooltip"));
		chromium.waitUntil(tooltip::isDisplayed);
		assertThat(tooltip.getText()).contains("Slow: ")
			.contains("in 2 spans")
			.contains("Typical: 0 samples in 18 spans");
		chromium.screenshot("slow-vs-typical.png");
		// The page says which normalisation colours it; as a share of samples the
		// slow-only method is red too.
		assertThat(chromium.driver.findElement(By.id("normalisation-label")).getText())
			.isEqualTo("Colour: difference per request (where the share moved the same way)");
		chromium.driver.findElement(By.id("norm-share")).click();
		assertThat(chromium.script("return window.spanprofile.state().normalisation")).isEqualTo("share");
		assertThat(chromium.driver.findElement(By.id("normalisation-label")).getText())
			.isEqualTo("Colour: difference share of samples");
		assertThat(chromium.driver.getCurrentUrl()).contains("colour=share");
		List<Number> sharePixel = (List<Number>) chromium.script(
				"return window.spanprofile.pixel(arguments[0], arguments[1])",
				((Number) diffFrame.get("x")).doubleValue() + 1, ((Number) diffFrame.get("y")).doubleValue() + 1);
		assertThat(sharePixel.get(0).intValue()).as("red of %s", sharePixel)
			.isGreaterThan(sharePixel.get(2).intValue() + 40);

		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

	/**
	 * Dragging across the heatmap's fast bands opens the graph of exactly those cells'
	 * requests: as many as the cells count, without the slow path, and with the samples
	 * the rest lacks; the selection is in the URL.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void aRectangleDraggedOnTheHeatmapOpensTheGraphOfItsRequests() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		for (int id = 1; id <= 20; id++) {
			client.get("/owners/" + id, "text/plain");
		}
		String nameQuery = "/actuator/spanprofile/names?name=" + URLEncoder.encode(NAME, StandardCharsets.UTF_8);
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			this.profiler.collectNow();
			long count = ((Number) ((List<Map<String, Object>>) client.json("/actuator/spanprofile/names").get("names"))
				.stream()
				.filter((entry) -> NAME.equals(entry.get("name")))
				.findFirst()
				.orElseThrow()
				.get("count")).longValue();
			return count >= 20 && ((Number) client.json(nameQuery + "&format=json").get("spans")).longValue() == count;
		});
		Map<String, Object> whole = client.json(nameQuery + "&format=json");
		chromium.open(client.url(nameQuery + "&format=html"), "!!window.spanprofileHeatmap && " + FLAME_READY);
		// The page's own matrix: its columns are the minutes the page drew.
		Map<String, Object> heatmap = (Map<String, Object>) chromium
			.script("return JSON.parse(document.getElementById('heatmap-data').textContent).heatmap");
		List<List<Number>> counts = (List<List<Number>>) heatmap.get("counts");
		List<Number> edges = (List<Number>) heatmap.get("bandEdgesMillis");
		// Every minute with requests, the bands below 500 ms: the fast requests only (the
		// slow ones take 900 ms on).
		int firstColumn = -1;
		int lastColumn = -1;
		for (int column = 0; column < counts.size(); column++) {
			if (counts.get(column).stream().mapToLong(Number::longValue).sum() > 0) {
				firstColumn = (firstColumn < 0) ? column : firstColumn;
				lastColumn = column;
			}
		}
		int topBand = 0;
		while (topBand + 1 < edges.size() - 1 && edges.get(topBand + 1).doubleValue() < 500) {
			topBand++;
		}
		long selected = 0;
		for (int column = firstColumn; column <= lastColumn; column++) {
			for (int band = 0; band <= topBand; band++) {
				selected += counts.get(column).get(band).longValue();
			}
		}
		assertThat(selected).as("fast requests").isGreaterThanOrEqualTo(18);
		chromium.screenshot("heatmap.png");
		Map<String, Object> from = (Map<String, Object>) chromium
			.script("return window.spanprofileHeatmap.cellRect(arguments[0], 0)", firstColumn);
		Map<String, Object> to = (Map<String, Object>) chromium
			.script("return window.spanprofileHeatmap.cellRect(arguments[0], arguments[1])", lastColumn, topBand);
		WebElement canvas = chromium.driver.findElement(By.id("heatmap-canvas"));
		new Actions(chromium.driver)
			.moveToElement(canvas, Chromium.offsetX(canvas, from), Chromium.offsetY(canvas, from))
			.clickAndHold()
			.moveToElement(canvas, Chromium.offsetX(canvas, to), Chromium.offsetY(canvas, to))
			.release()
			.perform();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().contains("from="));
		List<String> starts = (List<String>) heatmap.get("startTimes");
		chromium.waitUntil(() -> Boolean.TRUE.equals(chromium.script("return " + FLAME_READY)));
		String url = chromium.driver.getCurrentUrl();
		assertThat(url).contains("from=").contains("to=").contains("minDurationMillis=").contains("maxDurationMillis=");
		// The dragged cells' first minute, not a minute before it.
		assertThat(url).as("dragged from column %d, band 0", firstColumn)
			.contains("from=" + java.time.Instant.parse(starts.get(firstColumn)).toString().replace("Z", ".000Z"));
		assertThat(chromium.script("return window.spanprofile.frameRect('loadVisitHistorySlowly')")).isNull();
		assertThat(chromium.script("return window.spanprofile.frameRect('renderOwnerPage')")).isNotNull();
		chromium.screenshot("heatmap-selection.png");

		String selectionQuery = url.substring(url.indexOf("/actuator/")).replace("&format=html", "");
		Map<String, Object> selection = client.json(selectionQuery + "&format=json");
		assertThat(((Number) selection.get("spans")).longValue()).isEqualTo(selected);
		// The server applied the dragged minutes: its selection starts at the first one,
		// not at the window's start.
		assertThat(selection).containsEntry("from", starts.get(firstColumn))
			.containsEntry("to", java.time.Instant.parse(starts.get(lastColumn)).plusSeconds(60).toString());
		// Above the selection's bands: the slow requests. The two add up to the whole,
		// requests and samples alike.
		Map<String, Object> above = client.json(nameQuery + "&format=json&minDurationMillis=" + edges.get(topBand + 1));
		assertThat(((Number) selection.get("spans")).longValue() + ((Number) above.get("spans")).longValue())
			.isEqualTo(((Number) whole.get("spans")).longValue());
		assertThat(((Number) selection.get("samples")).longValue() + ((Number) above.get("samples")).longValue())
			.isEqualTo(((Number) whole.get("samples")).longValue());

		chromium.driver.findElement(By.id("heatmap-compare")).click();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().contains("compare=rest"));
		chromium.waitUntil(() -> Boolean.TRUE.equals(chromium.script("return " + FLAME_READY)));
		assertThat(chromium.driver.findElement(By.id("title")).getText()).contains("selection vs the rest");

		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

	/**
	 * On a 390 by 844 phone screen the span list, the names and a name's flame graph fit
	 * the width (only the tables scroll sideways, in their own box), their controls are
	 * on screen, and a tap on a frame zooms into it. Its requests are of another name
	 * than the other tests', whose counts they would change.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void onAPhoneThePagesFitTheScreenAndTheirControlsAreReachable() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		String name = "http get /checkout";
		String nameQuery = checkoutsProfiled(client, 6);
		emulateScreen(390, 844, true);
		try {
			chromium.open(client.url("/actuator/spanprofile"), "!!window.spanprofileScatter");
			fitsThePhone("span list", "filter", "scatter-canvas", "names-link");
			chromium.screenshot("phone-spans.png");
			chromium.open(client.url("/actuator/spanprofile/names"), "document.readyState === 'complete'");
			fitsThePhone("names", "table");
			WebElement link = chromium.driver.findElement(By.linkText(name));
			assertThat(link.getRect().getX()).isBetween(0, 390 - link.getRect().getWidth());
			chromium.open(client.url(nameQuery + "&format=html"), FLAME_READY);
			fitsThePhone("flame graph", "search", "reset", "view-top-down", "view-bottom-up", "heatmap-canvas",
					"flame");
			Map<String, Object> state = (Map<String, Object>) chromium.script("return window.spanprofile.state()");
			assertThat(((Number) state.get("canvasWidth")).doubleValue()).as("graph across the screen")
				.isBetween(350.0, 390.0);
			chromium.screenshot("phone.png");
			// The whole graph on screen: a pointer is placed from the centre of an
			// element's part in view.
			WebElement canvas = chromium.driver.findElement(By.id("flame"));
			chromium.script("arguments[0].scrollIntoView({ block: 'center' })", canvas);
			Map<String, Object> frame = chromium.frameRect("FraudRules.evaluateRules");
			new Actions(chromium.driver)
				.moveToElement(canvas, Chromium.offsetX(canvas, frame), Chromium.offsetY(canvas, frame))
				.click()
				.perform();
			assertThat((String) chromium.script("return window.spanprofile.state().zoom"))
				.endsWith("FraudRules.evaluateRules");
			fitsThePhone("zoomed flame graph", "breadcrumb", "frame-spans");
			assertThat(chromium.cspViolations()).isEmpty();
			assertThat(chromium.severeConsoleMessages()).isEmpty();
		}
		finally {
			chromium.driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
		}
	}

	/** At 1280×800 the pages use the width they have and need no sideways scrolling. */
	@Test
	@SuppressWarnings("unchecked")
	void atALaptopsSizeThePagesFitTheScreenAndTheirControlsAreReachable() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		String nameQuery = checkoutsProfiled(client, 3);
		emulateScreen(1280, 800, false);
		try {
			chromium.open(client.url("/actuator/spanprofile"), "!!window.spanprofileScatter");
			fitsTheScreen(1280, "span list", "filter", "scatter-canvas", "names-link");
			chromium.open(client.url("/actuator/spanprofile/names"), "document.readyState === 'complete'");
			fitsTheScreen(1280, "names", "table");
			chromium.open(client.url(nameQuery + "&format=html"), FLAME_READY);
			fitsTheScreen(1280, "flame graph", "search", "reset", "view-top-down", "view-bottom-up", "heatmap-canvas",
					"flame");
			Map<String, Object> state = (Map<String, Object>) chromium.script("return window.spanprofile.state()");
			// The graph's column beside the frame table: most of the screen, not a
			// phone's width.
			assertThat(((Number) state.get("canvasWidth")).doubleValue()).as("graph across its column")
				.isBetween(640.0, 1280.0);
			chromium.screenshot("laptop-name.png");
			assertThat(chromium.cspViolations()).isEmpty();
			assertThat(chromium.severeConsoleMessages()).isEmpty();
		}
		finally {
			chromium.driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
		}
	}

	/**
	 * In a 1,400-pixel window the names page needs no sideways scrolling, and every link
	 * of its table (each name's profiles and slowest requests) lies within the window's
	 * width and is the element found at its own centre once scrolled to: nothing covers
	 * or clips it. Names with five slowest requests and waits, as a real application's.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void inAFourteenHundredPixelWindowTheNamesPageFitsWithEveryLinkInView() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		checkoutsProfiled(client, 5);
		for (int i = 0; i < 5; i++) {
			client.get("/wait?millis=" + (20 + 10 * i), "text/plain");
		}
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			this.profiler.collectNow();
			return ((List<Map<String, Object>>) client.json("/actuator/spanprofile/names").get("names")).stream()
				.anyMatch((entry) -> "http get /wait".equals(entry.get("name"))
						&& ((Number) entry.get("count")).longValue() >= 5);
		});
		emulateScreen(1400, 900, false);
		try {
			chromium.open(client.url("/actuator/spanprofile/names"), "document.readyState === 'complete'");
			chromium.screenshot("names-1400.png");
			assertThat(((Number) chromium.script("return document.documentElement.scrollWidth")).intValue())
				.as("width of the names page")
				.isLessThanOrEqualTo(1400);
			List<Map<String, Object>> links = (List<Map<String, Object>>) chromium
				.script("return Array.from(document.querySelectorAll('#table tbody a')).map(function (a) {"
						+ " var r = a.getBoundingClientRect();"
						+ " return { text: a.textContent, href: a.getAttribute('href'), left: r.left, right: r.right,"
						+ " width: r.width, height: r.height }; })");
			// Each name's "slow vs typical", at least: /checkout's and /wait's.
			assertThat(links).as("profile links")
				.filteredOn((link) -> ((String) link.get("href")).endsWith("&compare=typical"))
				.hasSizeGreaterThanOrEqualTo(2);
			for (Map<String, Object> link : links) {
				assertThat(((Number) link.get("left")).doubleValue()).as("left of %s", link).isGreaterThanOrEqualTo(0);
				assertThat(((Number) link.get("right")).doubleValue()).as("right of %s", link)
					.isLessThanOrEqualTo(1400);
				assertThat(((Number) link.get("width")).doubleValue()).as("width of %s", link).isPositive();
				assertThat(((Number) link.get("height")).doubleValue()).as("height of %s", link).isPositive();
			}
			List<String> hidden = (List<String>) chromium
				.script("return Array.from(document.querySelectorAll('#table tbody a')).filter(function (a) {"
						+ " a.scrollIntoView({ block: 'center', inline: 'nearest' });"
						+ " var r = a.getClientRects()[0];"
						+ " var found = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
						+ " return !(found && (found === a || a.contains(found))); })"
						+ ".map(function (a) { return a.textContent + ' ' + a.getAttribute('href'); })");
			assertThat(hidden).as("links covered or clipped").isEmpty();
			assertThat(chromium.cspViolations()).isEmpty();
			assertThat(chromium.severeConsoleMessages()).isEmpty();
		}
		finally {
			chromium.driver.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
		}
	}

	/**
	 * {@code count} requests to /checkout, profiled and counted under their name: the
	 * name's page query.
	 */
	private String checkoutsProfiled(EndpointClient client, int count) throws Exception {
		for (int i = 0; i < count; i++) {
			client.get("/checkout?cpuMillis=100", "text/plain");
		}
		String nameQuery = "/actuator/spanprofile/names?name="
				+ URLEncoder.encode("http get /checkout", StandardCharsets.UTF_8);
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			this.profiler.collectNow();
			return ((Number) client.json(nameQuery + "&format=json").get("spans")).longValue() >= count;
		});
		return nameQuery;
	}

	/**
	 * Until {@code Emulation.clearDeviceMetricsOverride}, pages are laid out for this
	 * screen.
	 */
	private static void emulateScreen(int width, int height, boolean mobile) {
		chromium.driver.executeCdpCommand("Emulation.setDeviceMetricsOverride",
				Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", mobile));
	}

	private static void fitsThePhone(String page, String... ids) {
		fitsTheScreen(390, page, ids);
	}

	/**
	 * No sideways scrolling of the page, and each of the elements fully within the
	 * screen's width.
	 */
	private static void fitsTheScreen(int width, String page, String... ids) {
		// On failure, the elements reaching beyond the screen say what widened the page.
		Object wide = chromium.script("return Array.from(document.querySelectorAll('body *'))"
				+ ".filter(function (e) { return e.getBoundingClientRect().right > " + width + "; }).slice(0, 6)"
				+ ".map(function (e) { return e.tagName + '#' + e.id + '.' + e.className + ' '"
				+ " + Math.round(e.getBoundingClientRect().right); })");
		assertThat(chromium.script("return window.innerWidth")).as("%s: %s", page, wide).isEqualTo((long) width);
		assertThat(((Number) chromium.script("return document.documentElement.scrollWidth")).intValue())
			.as("%s: width of the page", page)
			.isLessThanOrEqualTo(width);
		for (String id : ids) {
			WebElement element = chromium.driver.findElement(By.id(id));
			assertThat(element.isDisplayed()).as("%s: #%s shown", page, id).isTrue();
			assertThat(element.getRect().getX()).as("%s: left of #%s", page, id).isGreaterThanOrEqualTo(0);
			assertThat(element.getRect().getX() + element.getRect().getWidth()).as("%s: right of #%s", page, id)
				.isLessThanOrEqualTo(width);
		}
	}

	/**
	 * The span list opens with a point per listed span; a click on one opens its graph, a
	 * rectangle dragged across the fast ones lists only those.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void theSpanListsScatterHasAPointPerSpanAndFiltersTheList() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		for (int id = 1; id <= 10; id++) {
			client.get("/owners/" + id, "text/plain");
		}
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			this.profiler.collectNow();
			return ((List<?>) client.json("/actuator/spanprofile").get("spans")).size() >= 10;
		});
		chromium.open(client.url("/actuator/spanprofile"), "!!window.spanprofileScatter");
		List<Map<String, Object>> points = (List<Map<String, Object>>) chromium
			.script("return window.spanprofileScatter.points()");
		List<WebElement> rows = chromium.driver.findElements(By.cssSelector("#spans tbody tr[data-start]"));
		assertThat(points).hasSize(rows.size()).hasSizeGreaterThanOrEqualTo(10);
		WebElement canvas = chromium.driver.findElement(By.id("scatter-canvas"));
		for (Map<String, Object> point : points) {
			assertThat(((Number) point.get("x")).doubleValue()).isBetween(0.0, (double) canvas.getRect().getWidth());
			assertThat(((Number) point.get("y")).doubleValue()).isBetween(0.0, (double) canvas.getRect().getHeight());
		}
		chromium.screenshot("scatter.png");

		// Below the slow owners' 900 ms: a rectangle over the whole width and the
		// durations under 500 ms.
		double y500 = ((Number) chromium.script("return window.spanprofileScatter.yOf(500)")).doubleValue();
		long fast = points.stream().filter((point) -> ((Number) point.get("y")).doubleValue() > y500).count();
		long width = canvas.getRect().getWidth();
		long height = canvas.getRect().getHeight();
		new Actions(chromium.driver).moveToElement(canvas, (int) (-width / 2 + 2), (int) (y500 - height / 2.0))
			.clickAndHold()
			.moveToElement(canvas, (int) (width / 2 - 2), (int) (height / 2 - 2))
			.release()
			.perform();
		chromium.waitUntil(() -> chromium.script("return window.spanprofileScatter.brush()") != null);
		long listed = chromium.driver.findElements(By.cssSelector("#spans tbody tr[data-start]"))
			.stream()
			.filter(WebElement::isDisplayed)
			.count();
		assertThat(listed).isEqualTo(fast).isLessThan(rows.size()).isPositive();
		chromium.screenshot("scatter-brushed.png");

		// A click on a point opens that span's flame graph: the point farthest from any
		// other, so none is nearer.
		chromium.driver.findElement(By.id("scatter-clear")).click();
		Map<String, Object> point = points.stream()
			.max(java.util.Comparator.comparingDouble((candidate) -> points.stream()
				.filter((other) -> other != candidate)
				.mapToDouble((other) -> Math.hypot(
						((Number) other.get("x")).doubleValue() - ((Number) candidate.get("x")).doubleValue(),
						((Number) other.get("y")).doubleValue() - ((Number) candidate.get("y")).doubleValue()))
				.min()
				.orElse(0)))
			.orElseThrow();
		new Actions(chromium.driver)
			.moveToElement(canvas, (int) Math.round(((Number) point.get("x")).doubleValue() - width / 2.0),
					(int) Math.round(((Number) point.get("y")).doubleValue() - height / 2.0))
			.click()
			.perform();
		String href = (String) point.get("href");
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().endsWith(href.substring(href.lastIndexOf('/'))));
		assertThat(chromium.cspViolations()).isEmpty();
	}

}
