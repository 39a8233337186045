package dev.spanprofile.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.openqa.selenium.interactions.Actions;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTML pages in a real headless Chromium, served by a real application with real
 * samples: the flame graph is drawn, zooms, searches and inverts under the endpoint's
 * Content-Security-Policy; the index links each row to its flame graph. Screenshots land
 * in {@code target/screenshots}.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class SpanProfilePagesBrowserTests {

	private static final String FLAME_READY = "!!(window.spanprofile && window.spanprofile.state().readyMillis > 0)";

	private static Chromium chromium;

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	private EndpointClient client;

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

	@BeforeEach
	void profilerRuns() {
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
		this.client = new EndpointClient(this.port, this.profiler);
	}

	@Test
	@SuppressWarnings("unchecked")
	void flameGraphIsDrawnAndZoomsSearchesAndInvertsUnderItsContentSecurityPolicy() throws Exception {
		Set<String> known = this.client.spanIds();
		this.client.get("/checkout?cpuMillis=800", "text/plain");
		Map<String, Object> span = this.client.awaitNewCompleteSpan("http get /checkout", known);
		String spanId = (String) span.get("spanId");
		long samples = ((Number) span.get("samples")).longValue();
		assertThat(samples).isGreaterThan(30);

		chromium.open(this.client.url("/actuator/spanprofile/" + spanId), FLAME_READY);
		assertThat(chromium.driver.findElement(By.id("title")).getText()).contains("http get /checkout");
		Map<String, Object> state = state();
		assertThat(((Number) state.get("samples")).longValue()).isEqualTo(samples);

		// The hot method is really painted: a wide rectangle with a colour that is not
		// the background.
		Map<String, Object> hot = chromium.frameRect("FraudRules.evaluateRules");
		double canvasWidth = ((Number) state.get("canvasWidth")).doubleValue();
		assertThat(((Number) hot.get("width")).doubleValue()).as("hot frame width of %s", canvasWidth)
			.isGreaterThan(canvasWidth * 0.3);
		List<Number> pixel = (List<Number>) chromium.script(
				"return window.spanprofile.pixel(arguments[0], arguments[1])", Chromium.centreX(hot),
				Chromium.centreY(hot));
		assertThat(pixel).extracting(Number::intValue).isNotEqualTo(List.of(255, 255, 255));

		// Hovering shows a tooltip with the frame's name and share.
		WebElement canvas = chromium.driver.findElement(By.id("flame"));
		new Actions(chromium.driver).moveToElement(canvas, Chromium.offsetX(canvas, hot), Chromium.offsetY(canvas, hot))
			.perform();
		WebElement tooltip = chromium.driver.findElement(By.id("tooltip"));
		chromium.waitUntil(tooltip::isDisplayed);
		assertThat(tooltip.getText()).contains("FraudRules.evaluateRules").contains("% of all").contains("samples");
		chromium.screenshot("flamegraph.png");

		// Click zooms into the frame: it then fills the width.
		new Actions(chromium.driver).click().perform();
		assertThat((String) state().get("zoom")).endsWith("FraudRules.evaluateRules");
		Map<String, Object> zoomed = chromium.frameRect("FraudRules.evaluateRules");
		assertThat(((Number) zoomed.get("width")).doubleValue()).isCloseTo(canvasWidth,
				org.assertj.core.data.Offset.offset(1.0));
		assertThat(chromium.driver.findElements(By.cssSelector("#breadcrumb button"))).hasSizeGreaterThan(1);
		chromium.driver.findElement(By.id("reset")).click();
		assertThat(((Number) state().get("zoomDepth")).intValue()).isZero();

		// Search highlights matches and reports their share, computed here from the
		// collapsed stacks.
		String collapsed = this.client.get("/actuator/spanprofile/" + spanId, "text/plain").body();
		long matched = 0;
		for (String line : collapsed.split("\n")) {
			if (line.contains("DiscountEngine")) {
				matched += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		String expected = String.format(Locale.ROOT, "Matched: %.1f%%", 100.0 * matched / samples);
		WebElement search = chromium.driver.findElement(By.id("search"));
		search.sendKeys("DiscountEngine");
		chromium.waitUntil(() -> ((String) state().get("match")).startsWith("Matched:"));
		assertThat((String) state().get("match")).startsWith(expected);
		search.sendKeys(Keys.ENTER);
		assertThat((String) state().get("zoom")).contains("DiscountEngine");
		chromium.screenshot("flamegraph-search.png");
		search.sendKeys(Keys.ESCAPE);
		assertThat((String) state().get("search")).isEmpty();
		assertThat(chromium.driver.findElement(By.id("match")).getText()).isEmpty();

		// Bottom-up: the function with most self time (first row of the table) sits right
		// under the root.
		String hottestSelf = chromium.driver.findElement(By.cssSelector("#top tbody tr")).getDomAttribute("data-frame");
		chromium.driver.findElement(By.id("view-bottom-up")).click();
		assertThat(state().get("view")).isEqualTo("bottom-up");
		Map<String, Object> leaf = chromium.frameRect(hottestSelf);
		assertThat(((Number) leaf.get("y")).doubleValue()).isEqualTo(18.0);
		assertThat(chromium.driver.getCurrentUrl()).contains("view=bottom-up");

		// A right-click on the hot method opens its sandwich: its callers and callees
		// merged over every call, with the totals the collapsed stacks give (outermost
		// call per stack, so recursion counts once).
		chromium.driver.findElement(By.id("view-top-down")).click();
		Map<String, Object> target = chromium.frameRect("FraudRules.evaluateRules");
		String function = (String) target.get("name");
		new Actions(chromium.driver)
			.moveToElement(canvas, Chromium.offsetX(canvas, target), Chromium.offsetY(canvas, target))
			.contextClick()
			.perform();
		Map<String, Object> sandwich = (Map<String, Object>) state().get("sandwich");
		assertThat(sandwich).as("sandwich after a right-click on %s", function).isNotNull();
		SandwichTotals expectedSandwich = SandwichTotals.of(collapsed, function);
		assertThat(sandwich.get("name")).isEqualTo(function);
		assertThat(((Number) sandwich.get("samples")).longValue()).isEqualTo(expectedSandwich.total).isGreaterThan(0);
		assertThat(weights((List<Map<String, Object>>) sandwich.get("callees"))).isEqualTo(expectedSandwich.callees);
		// The callers' level: the stacks' frame before the function.
		assertThat(weights((List<Map<String, Object>>) sandwich.get("callers"))).isEqualTo(expectedSandwich.callers)
			.isNotEmpty();
		assertThat(chromium.driver.findElement(By.id("sandwich-label")).getText()).contains("Sandwich of");
		assertThat(chromium.driver.getCurrentUrl()).contains("view=sandwich");
		assertThat(chromium.driver.findElement(By.id("diff-normalisation")).isDisplayed()).isFalse();
		// Search highlights stay in the sandwich.
		search.sendKeys("CheckoutController");
		chromium.waitUntil(() -> ((String) state().get("match")).startsWith("Matched:"));
		assertThat(state().get("view")).isEqualTo("sandwich");
		chromium.screenshot("sandwich.png");
		search.sendKeys(Keys.ESCAPE);
		search.sendKeys(Keys.ESCAPE);
		assertThat(state().get("view")).isEqualTo("top-down");

		// Nothing was refused or failed under the policy; and the policy is really
		// enforced.
		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
		chromium.script("var s = document.createElement('script'); s.textContent = 'window.__injected = 1;';"
				+ "document.body.appendChild(s);");
		assertThat(chromium.script("return window.__injected === undefined")).isEqualTo(true);
		assertThat(chromium.cspViolations()).anySatisfy((violation) -> assertThat(violation).startsWith("script-src"));
	}

	@Test
	void indexListsSpansSortsFiltersAndLinksEachRowToItsFlameGraph() throws Exception {
		Set<String> known = this.client.spanIds();
		this.client.get("/burn?cpuMillis=300", "text/plain");
		this.client.get("/checkout?cpuMillis=150", "text/plain");
		this.client.get("/relay?cpuMillis=80", "text/plain");
		Map<String, Object> checkout = this.client.awaitNewCompleteSpan("http get /checkout", known);
		this.client.awaitNewCompleteSpan("http get /relay", known);

		chromium.open(this.client.url("/actuator/spanprofile"), "!!window.spanprofileIndex");
		List<WebElement> rows = chromium.driver.findElements(By.cssSelector("#spans tbody tr[data-start]"));
		assertThat(rows).hasSizeGreaterThanOrEqualTo(4);
		String table = chromium.driver.findElement(By.id("spans")).getText();
		assertThat(table).contains("http get /checkout")
			.contains("CheckoutController.mix")
			.contains("BurnController.recognisablyHotMethod")
			.doesNotContain("in flight");
		chromium.screenshot("index.png");

		chromium.driver.findElement(By.cssSelector("button[data-sort=duration]")).click();
		List<Double> durations = durations();
		assertThat(durations).isSortedAccordingTo((a, b) -> Double.compare(b, a));
		chromium.driver.findElement(By.cssSelector("button[data-sort=duration]")).click();
		assertThat(durations()).isSorted();

		WebElement filter = chromium.driver.findElement(By.id("filter"));
		filter.sendKeys("checkout");
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> visible = (List<Map<String, Object>>) chromium
			.script("return window.spanprofileIndex.order()");
		assertThat(visible).isNotEmpty().allSatisfy((row) -> assertThat((String) row.get("name")).contains("checkout"));

		WebElement link = chromium.driver
			.findElement(By.cssSelector("a.span-link[href='spanprofile/" + checkout.get("spanId") + "']"));
		link.click();
		new WebDriverWait(chromium.driver, Duration.ofSeconds(20))
			.until((driver) -> Boolean.TRUE.equals(chromium.script("return " + FLAME_READY)));
		assertThat(chromium.driver.getCurrentUrl()).endsWith("/actuator/spanprofile/" + checkout.get("spanId"));
		assertThat(chromium.driver.findElement(By.id("title")).getText()).contains("http get /checkout");
		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

	@Test
	void traceGraphShowsEachLocalSpanAsAChildThatLeadsToItsOwnPage() throws Exception {
		Set<String> known = this.client.spanIds();
		this.client.get("/relay?cpuMillis=300", "text/plain");
		Map<String, Object> relay = this.client.awaitNewCompleteSpan("http get /relay", known);
		String traceId = (String) relay.get("traceId");
		Map<String, Object> burn = this.client.awaitSpan("http get /burn",
				(span) -> traceId.equals(span.get("traceId")) && Boolean.TRUE.equals(span.get("complete")));

		chromium.open(this.client.url("/actuator/spanprofile/" + traceId), FLAME_READY);
		assertThat(((Number) state().get("samples")).longValue())
			.isEqualTo(((Number) relay.get("samples")).longValue() + ((Number) burn.get("samples")).longValue());
		assertThat(chromium.driver.findElements(By.cssSelector(".span-links a"))).hasSize(2);
		WebElement openSpan = chromium.driver.findElement(By.id("open-span"));
		assertThat(openSpan.isDisplayed()).isFalse();

		Map<String, Object> spanFrame = chromium.frameRect("http get /burn");
		assertThat(((Number) spanFrame.get("y")).doubleValue()).isEqualTo(18.0);
		WebElement canvas = chromium.driver.findElement(By.id("flame"));
		new Actions(chromium.driver)
			.moveToElement(canvas, Chromium.offsetX(canvas, spanFrame), Chromium.offsetY(canvas, spanFrame))
			.click()
			.perform();
		assertThat(state().get("zoom")).isEqualTo("http get /burn");
		assertThat(openSpan.isDisplayed()).isTrue();
		assertThat(openSpan.getDomAttribute("href")).isEqualTo(burn.get("spanId"));
		chromium.driver.findElement(By.id("reset")).click();
		chromium.screenshot("trace.png");
		openSpanAfterZoom(canvas, burn);
		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

	/**
	 * Without a mouse: Tab reaches the graph, arrows move a visible selection between
	 * frames (down to a callee, up to the caller, along the row), S opens its sandwich,
	 * Enter zooms into it, Escape resets, and / still searches.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void theKeyboardSelectsFramesZoomsAndResets() throws Exception {
		Set<String> known = this.client.spanIds();
		this.client.get("/relay?cpuMillis=200", "text/plain");
		Map<String, Object> relay = this.client.awaitNewCompleteSpan("http get /relay", known);
		String traceId = (String) relay.get("traceId");
		Map<String, Object> burn = this.client.awaitSpan("http get /burn",
				(span) -> traceId.equals(span.get("traceId")) && Boolean.TRUE.equals(span.get("complete")));
		Map<String, Long> spanSamples = Map.of("http get /relay", ((Number) relay.get("samples")).longValue(),
				"http get /burn", ((Number) burn.get("samples")).longValue());
		chromium.open(this.client.url("/actuator/spanprofile/" + traceId), FLAME_READY);

		// Tab from the search field reaches the graph, which then shows that it has the
		// focus.
		chromium.driver.findElement(By.id("search")).click();
		for (int i = 0; i < 20 && !"flame".equals(activeId()); i++) {
			new Actions(chromium.driver).sendKeys(Keys.TAB).perform();
		}
		assertThat(activeId()).isEqualTo("flame");
		assertThat(chromium.script("return document.getElementById('flame').matches(':focus-visible')"))
			.isEqualTo(true);
		assertThat(state().get("selected")).isNull();

		// The first arrow selects the whole graph; down goes to the heavier span, right
		// to the other one.
		press(Keys.ARROW_DOWN);
		assertThat(selected()).containsEntry("depth", 0L)
			.containsEntry("samples", spanSamples.values().stream().mapToLong(Long::longValue).sum());
		press(Keys.ARROW_DOWN);
		Map<String, Object> first = selected();
		assertThat(first.get("depth")).isEqualTo(1L);
		assertThat(spanSamples).containsEntry((String) first.get("name"), (Long) first.get("samples"));
		assertThat((Long) first.get("samples"))
			.isEqualTo(Math.max(spanSamples.get("http get /relay"), spanSamples.get("http get /burn")));
		// The selection is drawn in the accent colour at the frame's left edge, where no
		// label is.
		Map<String, Object> rect = (Map<String, Object>) chromium.script("return window.spanprofile.selectedRect()");
		assertThat(rect).containsEntry("name", first.get("name"));
		List<Number> edge = (List<Number>) chromium.script(
				"return window.spanprofile.pixel(arguments[0], arguments[1])",
				((Number) rect.get("x")).doubleValue() + 1, Chromium.centreY(rect));
		assertThat(edge).extracting(Number::intValue).containsExactly(11, 98, 196);
		chromium.screenshot("flamegraph-keyboard.png");
		press(Keys.ARROW_RIGHT);
		Map<String, Object> second = selected();
		assertThat(second.get("depth")).isEqualTo(1L);
		assertThat(second.get("name")).isNotEqualTo(first.get("name"));
		assertThat(spanSamples).containsEntry((String) second.get("name"), (Long) second.get("samples"));
		assertThat(((Number) second.get("x")).doubleValue()).isEqualTo(((Number) first.get("samples")).doubleValue());
		press(Keys.ARROW_RIGHT);
		assertThat(selected()).isEqualTo(second);
		press(Keys.ARROW_LEFT);
		assertThat(selected()).isEqualTo(first);
		press(Keys.ARROW_DOWN);
		assertThat(selected().get("depth")).isEqualTo(2L);
		assertThat((Long) selected().get("samples")).isLessThanOrEqualTo((Long) first.get("samples")).isPositive();
		press(Keys.ARROW_UP);
		assertThat(selected()).isEqualTo(first);
		// S opens the selected frame's sandwich, Escape closes it; the selection starts
		// again from the top.
		press("s");
		assertThat(state().get("view")).isEqualTo("sandwich");
		assertThat((Map<String, Object>) state().get("sandwich")).containsEntry("name", first.get("name"));
		press(Keys.ESCAPE);
		assertThat(state().get("view")).isEqualTo("top-down");
		press(Keys.ARROW_DOWN);
		press(Keys.ARROW_DOWN);
		assertThat(selected()).isEqualTo(first);

		// Enter zooms into the selected frame; Escape resets the zoom, the graph keeping
		// the focus.
		press(Keys.ENTER);
		assertThat(state().get("zoom")).isEqualTo(first.get("name"));
		assertThat(((Number) state().get("zoomDepth")).intValue()).isEqualTo(1);
		assertThat(chromium.driver.findElement(By.id("open-span")).isDisplayed()).isTrue();
		press(Keys.ESCAPE);
		assertThat(((Number) state().get("zoomDepth")).intValue()).isZero();
		assertThat(activeId()).isEqualTo("flame");

		// / goes to the search field without typing itself; arrows there are the field's,
		// not the graph's.
		press("/");
		assertThat(activeId()).isEqualTo("search");
		press("burn");
		chromium.waitUntil(() -> ((String) state().get("match")).startsWith("Matched:"));
		assertThat(state().get("search")).isEqualTo("burn");
		press(Keys.ARROW_DOWN);
		assertThat(selected().get("depth")).isEqualTo(0L);
		press(Keys.ESCAPE);
		assertThat(state().get("search")).isEqualTo("");
		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

	private static void press(CharSequence keys) {
		new Actions(chromium.driver).sendKeys(keys).perform();
	}

	private static String activeId() {
		return (String) chromium.script("return document.activeElement && document.activeElement.id");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> selected() {
		Map<String, Object> selected = (Map<String, Object>) state().get("selected");
		assertThat(selected).as("a selected frame").isNotNull();
		return selected;
	}

	private static Map<String, Long> weights(List<Map<String, Object>> entries) {
		Map<String, Long> weights = new TreeMap<>();
		for (Map<String, Object> entry : entries) {
			weights.merge((String) entry.get("name"), ((Number) entry.get("samples")).longValue(), Long::sum);
		}
		return weights;
	}

	/**
	 * A function's sandwich as the collapsed stacks give it: its total (the stacks
	 * through it, each once), and the weight of each direct caller and callee at its
	 * outermost call.
	 */
	private static final class SandwichTotals {

		long total;

		final Map<String, Long> callers = new TreeMap<>();

		final Map<String, Long> callees = new TreeMap<>();

		static SandwichTotals of(String collapsed, String function) {
			SandwichTotals totals = new SandwichTotals();
			for (String line : collapsed.split("\n")) {
				int space = line.lastIndexOf(' ');
				if (space < 0) {
					continue;
				}
				List<String> frames = List.of(line.substring(0, space).split(";"));
				int at = frames.indexOf(function);
				if (at < 0) {
					continue;
				}
				long weight = Long.parseLong(line.substring(space + 1));
				totals.total += weight;
				if (at > 0) {
					totals.callers.merge(frames.get(at - 1), weight, Long::sum);
				}
				if (at + 1 < frames.size()) {
					totals.callees.merge(frames.get(at + 1), weight, Long::sum);
				}
			}
			return totals;
		}

	}

	private void openSpanAfterZoom(WebElement canvas, Map<String, Object> burn) {
		Map<String, Object> spanFrame = chromium.frameRect("http get /burn");
		new Actions(chromium.driver)
			.moveToElement(canvas, Chromium.offsetX(canvas, spanFrame), Chromium.offsetY(canvas, spanFrame))
			.click()
			.perform();
		chromium.driver.findElement(By.id("open-span")).click();
		new WebDriverWait(chromium.driver, Duration.ofSeconds(20))
			.until((driver) -> driver.getCurrentUrl().endsWith("/actuator/spanprofile/" + burn.get("spanId"))
					&& Boolean.TRUE.equals(chromium.script("return " + FLAME_READY)));
		assertThat(chromium.driver.findElement(By.id("title")).getText()).contains("http get /burn");
	}

	@SuppressWarnings("unchecked")
	private List<Double> durations() {
		List<Map<String, Object>> order = (List<Map<String, Object>>) chromium
			.script("return window.spanprofileIndex.order()");
		return order.stream().map((row) -> ((Number) row.get("duration")).doubleValue()).toList();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> state() {
		return (Map<String, Object>) chromium.script("return window.spanprofile.state()");
	}

}
