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
 * The span-name pages in a real headless Chromium: from the index to the list of names, to a name's merged flame
 * graph, from one of its frames to the stored requests with samples there, and the slow-versus-typical page with
 * the slow-only method drawn red. Screenshots land in {@code target/screenshots}.
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

		// A click on the slow-only frame offers the requests with samples in it: the two slow ones.
		Map<String, Object> slow = chromium.frameRect("loadVisitHistorySlowly");
		WebElement canvas = chromium.driver.findElement(By.id("flame"));
		new Actions(chromium.driver).moveToElement(canvas, Chromium.offsetX(canvas, slow), Chromium.offsetY(canvas, slow)).click().perform();
		WebElement frameSpans = chromium.driver.findElement(By.id("frame-spans"));
		chromium.waitUntil(frameSpans::isDisplayed);
		assertThat(frameSpans.getText()).contains("loadVisitHistorySlowly");
		chromium.screenshot("name-flamegraph.png");
		frameSpans.click();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().contains("frame="));
		// The slow requests, those that ran the method through this call path (reflection's accessor changes after
		// the first calls, so the two may reach it through different frames).
		List<String> slowest = ((List<String>) ((List<Map<String, Object>>) client
			.json("/actuator/spanprofile/names").get("names")).stream()
			.filter((entry) -> NAME.equals(entry.get("name")))
			.findFirst()
			.orElseThrow()
			.get("slowest")).subList(0, 2);
		List<String> listed = chromium.driver.findElements(By.cssSelector("#table tbody tr td:first-child a"))
			.stream()
			.map(WebElement::getText)
			.toList();
		assertThat(listed).isNotEmpty().isSubsetOf(slowest);

		// Slow versus typical: the slow-only method is drawn red (more per request on the slow side).
		chromium.open(client.url(nameQuery + "&compare=typical&format=html"), FLAME_READY);
		Map<String, Object> diffFrame = chromium.frameRect("loadVisitHistorySlowly");
		// Top-left corner of the frame: its fill, away from its label.
		List<Number> pixel = (List<Number>) chromium.script("return window.spanprofile.pixel(arguments[0], arguments[1])",
				((Number) diffFrame.get("x")).doubleValue() + 1, ((Number) diffFrame.get("y")).doubleValue() + 1);
		assertThat(pixel.get(0).intValue()).as("red of %s", pixel).isGreaterThan(pixel.get(2).intValue() + 40);
		canvas = chromium.driver.findElement(By.id("flame"));
		new Actions(chromium.driver).moveToElement(canvas, Chromium.offsetX(canvas, diffFrame), Chromium.offsetY(canvas, diffFrame))
			.perform();
		WebElement tooltip = chromium.driver.findElement(By.id("tooltip"));
		chromium.waitUntil(tooltip::isDisplayed);
		assertThat(tooltip.getText()).contains("Slow: ").contains("in 2 spans").contains("Typical: 0 samples in 18 spans");
		chromium.screenshot("slow-vs-typical.png");
		// The page says which normalisation colours it; as a share of samples the slow-only method is red too.
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

}
