package dev.spanprofile.actuate;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import static org.assertj.core.api.Assertions.within;

/**
 * With {@code cpu,alloc,lock} sampled, the pages in a real headless Chromium: the span
 * list sorted by bytes allocated, the allocation graph in MB, a switch to the other kinds
 * sampled, and the lock graph in ms behind it, on a span's page and on its name's.
 * Screenshots land in {@code target/screenshots}.
 * <p>
 * async-profiler skips the events recorded while a dump holds its locks, which on a
 * loaded machine can take hundreds of milliseconds: with 1 s dumps a CI run once lost
 * this request's allocations whole, and the page then rightly showed an empty graph.
 * Dumps 30 s apart keep that loss (measured on its own in AsyncProfilerDumpLossTest) out
 * of what this test checks, the pages; the client's collects come after the request, as
 * in {@link LockWaitWebTests}.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.event=cpu,alloc,lock",
				"spanprofile.alloc-interval=64KB", "spanprofile.dump-interval=30s",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class AllocationPagesBrowserTests {

	private static final String FLAME_READY = "!!(window.spanprofile && window.spanprofile.state().readyMillis > 0)";

	private static final String NAME = "http get /allocate-and-wait";

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
	void allocationGraphInMegabytesSwitchesToTheLockGraphInMilliseconds() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		Set<String> known = client.spanIds();
		assertThat(client.get("/allocate-and-wait?megabytes=64&holdMillis=200", "text/plain").statusCode())
			.isEqualTo(200);
		Map<String, Object> span = client.awaitNewCompleteSpan(NAME, known);
		String id = (String) span.get("spanId");
		long allocated = ((Number) span.get("allocatedBytes")).longValue();
		double lockNanos = ((Number) span.get("lockWaitMillis")).doubleValue() * 1e6;
		// Something to draw, or every check below would pass on empty graphs: the 64 MiB
		// within a wide margin of the sampling error (ConcurrentAllocationWebTests bounds
		// it closely), and most of the 200 ms wait.
		assertThat(allocated).isBetween(48L << 20, 80L << 20);
		assertThat(lockNanos).isGreaterThan(150e6);

		// The list has a column of bytes per request: sorted by it, this request (64 MiB)
		// comes first.
		chromium.open(client.url("/actuator/spanprofile"), "!!window.spanprofileIndex");
		chromium.driver.findElement(By.cssSelector("button[data-sort=allocated]")).click();
		WebElement first = chromium.driver.findElement(By.cssSelector("#spans tbody tr[data-start]"));
		assertThat(first.findElement(By.cssSelector("a.span-link")).getDomAttribute("href")).endsWith(id);
		assertThat(first.findElement(By.cssSelector("td.allocated")).getText())
			.isEqualTo(String.format(java.util.Locale.ROOT, "%.1f MB", allocated / (1024.0 * 1024.0)));
		assertThat(first.findElement(By.cssSelector("td.lockwait")).getText()).endsWith(" ms");
		chromium.screenshot("index-allocated.png");

		chromium.open(client.url("/actuator/spanprofile/" + id + "?event=alloc"), FLAME_READY);
		assertThat(((Number) state().get("samples")).longValue()).isEqualTo(allocated);
		// Every kind recorded, the waits recorded by default included.
		assertThat(switchLabels()).containsExactly("CPU", "Allocations (MB)", "Locks (ms)", "Waits (ms)");
		assertThat(chromium.driver.findElement(By.id("kind-alloc")).getDomAttribute("aria-current")).isEqualTo("page");
		assertThat(chromium.driver.findElement(By.tagName("header")).getText()).contains("MB allocated");
		// The other formats offered are those of the graph on screen.
		assertThat(chromium.driver.findElement(By.linkText("pprof")).getDomAttribute("href")).endsWith("&event=alloc");
		hover("recognisablyAllocatingAlpha", "MB allocated");
		chromium.screenshot("alloc-flamegraph.png");

		chromium.driver.findElement(By.id("kind-lock")).click();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().endsWith("?event=lock")
				&& Boolean.TRUE.equals(chromium.script("return " + FLAME_READY)));
		assertThat(((Number) state().get("samples")).doubleValue()).isCloseTo(lockNanos, within(1.0));
		assertThat(chromium.driver.findElement(By.id("kind-lock")).getDomAttribute("aria-current")).isEqualTo("page");
		assertThat(chromium.driver.findElement(By.tagName("header")).getText()).contains("ms waiting for locks");
		hover("recognisablyBlockedOnMonitor", "ms waiting for locks");
		chromium.screenshot("lock-flamegraph.png");

		// The span name's merged graph has the same switch.
		String names = "/actuator/spanprofile/names?name=" + URLEncoder.encode(NAME, StandardCharsets.UTF_8);
		chromium.open(client.url(names + "&format=html&event=alloc"), FLAME_READY);
		assertThat(switchLabels()).containsExactly("CPU", "Allocations (MB)", "Locks (ms)", "Waits (ms)");
		assertThat(((Number) state().get("samples")).longValue()).isEqualTo(allocated);
		chromium.driver.findElement(By.id("kind-lock")).click();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().endsWith("&event=lock")
				&& Boolean.TRUE.equals(chromium.script("return " + FLAME_READY)));
		assertThat(((Number) state().get("samples")).doubleValue()).isCloseTo(lockNanos, within(1.0));
		chromium.driver.findElement(By.id("kind-cpu")).click();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().endsWith("&event=cpu")
				&& Boolean.TRUE.equals(chromium.script("return " + FLAME_READY)));

		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

	private List<String> switchLabels() {
		return chromium.driver.findElements(By.cssSelector(".kinds a")).stream().map(WebElement::getText).toList();
	}

	private void hover(String frame, String unitText) {
		Map<String, Object> rect = chromium.frameRect(frame);
		double canvasWidth = ((Number) state().get("canvasWidth")).doubleValue();
		// Nine tenths of the weight or more is in the method: its frame spans most of the
		// graph.
		assertThat(((Number) rect.get("width")).doubleValue()).as("%s width of %s", frame, canvasWidth)
			.isGreaterThanOrEqualTo(canvasWidth * 0.9 - 1);
		WebElement canvas = chromium.driver.findElement(By.id("flame"));
		new Actions(chromium.driver)
			.moveToElement(canvas, Chromium.offsetX(canvas, rect), Chromium.offsetY(canvas, rect))
			.perform();
		WebElement tooltip = chromium.driver.findElement(By.id("tooltip"));
		chromium.waitUntil(tooltip::isDisplayed);
		assertThat(tooltip.getText()).contains(frame).contains(unitText);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> state() {
		return (Map<String, Object>) chromium.script("return window.spanprofile.state()");
	}

}
