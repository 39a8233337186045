package dev.spanprofile.actuate;

import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.interactions.Actions;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A real request, profiled with the defaults, that computes for 300 ms of CPU and then
 * sleeps for one second: its page draws its timeline in Chromium (one bar for the sleep,
 * CPU ticks before it), and dragging across the computing stretch loads the graph of that
 * stretch only. The screenshot (target/screenshots/timeline.png) is
 * docs/images/timeline.png.
 */
@SpringBootTest(classes = { BurnApplication.class, TimelineBrowserTests.ComputeThenSleep.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class TimelineBrowserTests {

	private static final String READY = "!!(window.spanprofile && window.spanprofile.state().readyMillis > 0"
			+ " && window.spanprofileTimeline)";

	private static final long SLEEP_MILLIS = 1000;

	private static Chromium chromium;

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@AfterAll
	static void stopBrowser() throws Exception {
		if (chromium != null) {
			chromium.close();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void timelineShowsTheSleepAsOneBarAfterTheCpuAndADragGivesTheGraphOfTheComputingStretch() throws Exception {
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		Set<String> known = client.spanIds();
		assertThat(client.get("/compute-then-sleep?cpuMillis=300&sleepMillis=" + SLEEP_MILLIS, "text/plain").body())
			.isEqualTo("done");
		String spanId = (String) client.awaitNewCompleteSpan("http get /compute-then-sleep", known).get("spanId");

		// The JSON: the sleep is one entry of the right length, with CPU samples before
		// it on the same thread.
		Map<String, Object> json = client.json("/actuator/spanprofile/" + spanId);
		assertThat(json.get("flameGraphEvent")).isEqualTo("wait");
		Map<String, Object> timeline = (Map<String, Object>) json.get("timeline");
		List<Map<String, Object>> entries = (List<Map<String, Object>>) timeline.get("entries");
		List<Map<String, Object>> longWaits = entries.stream()
			.filter((entry) -> "wait".equals(entry.get("kind"))
					&& millis(entry, "endMillis") - millis(entry, "startMillis") > 50)
			.toList();
		System.out.printf("timeline: %d entries, waits over 50 ms: %s%n", entries.size(), longWaits);
		assertThat(longWaits).as("waits over 50 ms").hasSize(1);
		Map<String, Object> sleep = longWaits.get(0);
		assertThat(sleep.get("label")).isEqualTo("[sleep]");
		double sleepStart = millis(sleep, "startMillis");
		assertThat(millis(sleep, "endMillis") - sleepStart).isCloseTo(SLEEP_MILLIS, within(SLEEP_MILLIS * 0.1));
		long cpuBefore = entries.stream()
			.filter((entry) -> "cpu".equals(entry.get("kind")) && entry.get("lane").equals(sleep.get("lane"))
					&& millis(entry, "endMillis") <= sleepStart)
			.count();
		System.out.printf("timeline: %d entries, %d CPU samples before a %.1f ms sleep at %.1f ms%n", entries.size(),
				cpuBefore, millis(sleep, "endMillis") - sleepStart, sleepStart);
		assertThat(cpuBefore).isGreaterThanOrEqualTo(5);

		// The page draws it: one bar for the sleep, to scale, and the CPU ticks before
		// it.
		chromium = (chromium != null) ? chromium : Chromium.start();
		chromium.driver.manage().window().setSize(new Dimension(1280, 800));
		chromium.open(client.url("/actuator/spanprofile/" + spanId), READY);
		Map<String, Object> drawn = (Map<String, Object>) chromium.script("return window.spanprofileTimeline.state()");
		List<Map<String, Object>> bars = ((List<Map<String, Object>>) drawn.get("waits")).stream()
			.filter((bar) -> "[sleep]".equals(bar.get("label")))
			.toList();
		assertThat(bars).hasSize(1);
		Map<String, Object> bar = bars.get(0);
		double plotWidth = number(drawn, "width") - 12;
		double duration = number(drawn, "durationMillis");
		assertThat(number(bar, "width") / plotWidth).isCloseTo(SLEEP_MILLIS / duration,
				within(0.1 * SLEEP_MILLIS / duration));
		long ticksBefore = ((List<Map<String, Object>>) drawn.get("ticks")).stream()
			.filter((tick) -> "cpu".equals(tick.get("kind")) && number(tick, "x") <= number(bar, "x"))
			.count();
		assertThat(ticksBefore).isGreaterThanOrEqualTo(cpuBefore);
		List<Number> pixel = (List<Number>) chromium
			.script("var c = document.getElementById('timeline-canvas'), r = window.devicePixelRatio || 1;"
					+ "var p = c.getContext('2d').getImageData(Math.floor(arguments[0] * r), Math.floor(arguments[1] * r), 1, 1).data;"
					+ "return [p[0], p[1], p[2]];", number(bar, "x") + number(bar, "width") * 0.75,
					number(bar, "y") + number(bar, "height") / 2);
		assertThat(pixel).extracting(Number::intValue)
			.isNotEqualTo(List.of(255, 255, 255))
			.isNotEqualTo(List.of(245, 246, 248));
		chromium.screenshot("timeline.png");

		// Dragging across the computing stretch loads its graph: CPU, not the sleep, with
		// the stretch's samples.
		Map<String, Object> canvas = (Map<String, Object>) chromium.script(
				"var r = document.getElementById('timeline-canvas').getBoundingClientRect(); return {x: r.left, y: r.top};");
		int y = (int) Math.round(number(canvas, "y") + number(bar, "y") + number(bar, "height") / 2);
		int fromX = (int) Math.round(number(canvas, "x") + 7);
		int toX = (int) Math.round(number(canvas, "x") + number(bar, "x") - 2);
		new Actions(chromium.driver).moveToLocation(fromX, y).clickAndHold().moveToLocation(toX, y).release().perform();
		chromium.waitUntil(() -> chromium.driver.getCurrentUrl().contains("to="));
		chromium.waitUntil(() -> Boolean.TRUE.equals(chromium.script("return " + READY)));
		Map<String, String> query = query(chromium.driver.getCurrentUrl());
		double from = Double.parseDouble(query.get("from"));
		double to = Double.parseDouble(query.get("to"));
		assertThat(to).isLessThanOrEqualTo(sleepStart + 1);
		long cpuInStretch = entries.stream()
			.filter((entry) -> "cpu".equals(entry.get("kind")) && millis(entry, "endMillis") >= from
					&& millis(entry, "endMillis") < to)
			.count();
		Map<String, Object> graph = (Map<String, Object>) chromium.script("return window.spanprofile.state()");
		long profilerSamples = ((Number) json.getOrDefault("profilerSamples", 0)).longValue();
		System.out.printf("stretch %.1f..%.1f ms: %s samples on the page, %d CPU samples on the timeline in it%n", from,
				to, graph.get("samples"), cpuInStretch);
		assertThat(((Number) graph.get("samples")).longValue()).isBetween(cpuInStretch - profilerSamples, cpuInStretch)
			.isGreaterThanOrEqualTo(cpuBefore - 2 - profilerSamples);
		assertThat(chromium.script("return window.spanprofile.frameRect('[sleep')")).isNull();
		assertThat(chromium.script("return window.spanprofile.frameRect('computeTotals')")).isNotNull();
		assertThat(chromium.driver.findElement(org.openqa.selenium.By.id("kind-cpu")).getDomAttribute("aria-current"))
			.isEqualTo("page");
		Map<String, Object> stretchJson = client
			.json("/actuator/spanprofile/" + spanId + "?from=" + query.get("from") + "&to=" + query.get("to"));
		// Values taken out first: a failing assertion on the whole body would print a
		// whole flame graph.
		assertThat(stretchJson.get("flameGraphEvent")).isEqualTo("cpu");
		assertThat(((Number) stretchJson.get("samples")).longValue())
			.isEqualTo(((Number) graph.get("samples")).longValue());
		assertThat(((Map<String, Object>) drawn.get("stretch"))).isNull();
		assertThat((List<Number>) ((Map<String, Object>) chromium.script("return window.spanprofileTimeline.state()"))
			.get("stretch")).extracting(Number::doubleValue).containsExactly(from, to);

		// At a phone's width the timeline still fits the screen, its bar still drawn.
		chromium.driver.manage().window().setSize(new Dimension(390, 844));
		chromium.open(client.url("/actuator/spanprofile/" + spanId), READY);
		Map<String, Object> narrow = (Map<String, Object>) chromium
			.script("var r = document.getElementById('timeline-canvas').getBoundingClientRect();"
					+ "return {right: r.right, inner: window.innerWidth, waits: window.spanprofileTimeline.state().waits};");
		assertThat(number(narrow, "right")).isLessThanOrEqualTo(number(narrow, "inner"));
		assertThat((List<Map<String, Object>>) narrow.get("waits"))
			.anySatisfy((wait) -> assertThat(number(wait, "width")).isGreaterThan(100));
		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

	@Test
	void aBadStretchIsA400SayingWhy() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		Set<String> known = client.spanIds();
		client.get("/compute-then-sleep?cpuMillis=20&sleepMillis=20", "text/plain");
		String spanId = (String) client.awaitNewCompleteSpan("http get /compute-then-sleep", known).get("spanId");
		HttpResponse<String> bad = client.get("/actuator/spanprofile/" + spanId + "?from=soon", "text/html");
		assertThat(bad.statusCode()).isEqualTo(400);
		assertThat(bad.body()).contains("from must be milliseconds from the span's start");
		HttpResponse<String> after = client.get("/actuator/spanprofile/" + spanId + "?from=60000", "application/json");
		assertThat(after.statusCode()).isEqualTo(400);
		assertThat(after.body()).contains("holds none of the span's time");
	}

	private static Map<String, String> query(String url) {
		Map<String, String> parameters = new HashMap<>();
		for (String pair : URI.create(url).getRawQuery().split("&")) {
			int equals = pair.indexOf('=');
			parameters.put(pair.substring(0, equals),
					URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
		}
		return parameters;
	}

	private static double millis(Map<String, Object> entry, String key) {
		return number(entry, key);
	}

	private static double number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).doubleValue();
	}

	@RestController
	static class ComputeThenSleep {

		static volatile long sink;

		@GetMapping("/compute-then-sleep")
		String computeThenSleep(@RequestParam long cpuMillis, @RequestParam long sleepMillis) throws Exception {
			computeTotals(cpuMillis);
			Thread.sleep(sleepMillis);
			return "done";
		}

		static void computeTotals(long cpuMillis) {
			CheckoutController.burnIn(cpuMillis, (seed) -> CheckoutController.mix(seed, 150_000));
		}

	}

}
