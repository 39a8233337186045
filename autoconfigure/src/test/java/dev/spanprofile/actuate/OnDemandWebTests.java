package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.store.RetainedAs;
import dev.spanprofile.store.SpanRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Profile this request, on a real server whose tracing samples nothing: the request that
 * carries the header with the token is traced, profiled and kept, and its response names
 * its span; one with a wrong token is answered as any other and not traced.
 */
@SpringBootTest(classes = { BurnApplication.class, OnDemandWebTests.Pets.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=0.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false", "spanprofile.on-demand.enabled=true",
				"spanprofile.on-demand.token=s3cret-token", "spanprofile.on-demand.max-per-minute=4" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DirtiesContext
class OnDemandWebTests {

	private static final Pattern SPAN_TIMING = Pattern.compile("spanprofile;desc=\"([0-9a-f]{16})\"");

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	private EndpointClient endpoint;

	@BeforeEach
	void profilerRuns() {
		this.endpoint = new EndpointClient(this.port, this.profiler);
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
	}

	@Test
	@Order(1)
	void headerWithTheTokenForcesATraceUnderANothingSampler() throws Exception {
		HttpResponse<String> response = this.endpoint.get("/burn?cpuMillis=600", "text/plain", "X-Spanprofile",
				"s3cret-token");
		assertThat(response.body()).isEqualTo("burnt");
		String serverTiming = response.headers().firstValue("Server-Timing").orElseThrow();
		Matcher matcher = SPAN_TIMING.matcher(serverTiming);
		assertThat(matcher.matches()).as(serverTiming).isTrue();
		String spanId = matcher.group(1);
		assertThat(response.headers().firstValue("Link"))
			.hasValue("</actuator/spanprofile/" + spanId + "?format=html>; rel=\"related\"; title=\"flame graph\"");

		// Without sleeping: the graph waits for the profile to be complete.
		HttpResponse<String> graph = this.endpoint.get("/actuator/spanprofile/" + spanId + "?await=10s", "text/plain");
		assertThat(graph.statusCode()).as(graph.body()).isEqualTo(200);
		long hot = EndpointClient.samplesWith(graph.body(), "BurnController.recognisablyHotMethod");
		// 600 ms of CPU at 20 ms: about 30 samples.
		assertThat(hot).isBetween(12L, 60L);
		SpanRecord record = this.profiler.store().find(spanId);
		assertThat(record.retainedAs()).isEqualTo(RetainedAs.FORCED);
		assertThat(record.isForced()).isTrue();
		Map<String, Object> listed = this.endpoint.spans("?name=burn").get(0);
		assertThat(listed).containsEntry("forced", true).doesNotContainKey("captured");
		// No other request of the kind was traced: the sampler samples nothing.
		this.endpoint.get("/burn?cpuMillis=10", "text/plain");
		this.profiler.collectNow();
		assertThat(this.endpoint.spans("?name=burn")).extracting((span) -> span.get("spanId")).containsExactly(spanId);
	}

	@Test
	@Order(2)
	void wrongOrMissingTokenChangesNothing() throws Exception {
		Set<String> before = this.endpoint.spanIds();
		HttpResponse<String> wrong = this.endpoint.get("/burn?cpuMillis=10", "text/plain", "X-Spanprofile",
				"s3cret-tokem");
		HttpResponse<String> plain = this.endpoint.get("/burn?cpuMillis=10", "text/plain");
		assertThat(wrong.statusCode()).isEqualTo(200);
		assertThat(wrong.body()).isEqualTo(plain.body());
		assertThat(wrong.headers().firstValue("Server-Timing")).isEmpty();
		assertThat(wrong.headers().firstValue("Link")).isEmpty();
		assertThat(headersBut(wrong)).isEqualTo(headersBut(plain));
		this.profiler.collectNow();
		assertThat(this.endpoint.spanIds()).isEqualTo(before);
	}

	@Test
	@Order(3)
	void awaitRefusesABadDurationAndOneAboveItsCap() throws Exception {
		HttpResponse<String> bad = this.endpoint.get("/actuator/spanprofile/0123456789abcdef?await=soon",
				"application/json");
		assertThat(bad.statusCode()).isEqualTo(400);
		assertThat(bad.body()).contains("await must be a duration such as 5s");
		HttpResponse<String> tooLong = this.endpoint.get("/actuator/spanprofile/0123456789abcdef?await=2m",
				"application/json");
		assertThat(tooLong.statusCode()).isEqualTo(400);
		assertThat(tooLong.body()).contains("await must be at most 30s");
	}

	@Test
	@Order(4)
	void beyondMaxPerMinuteTheResponseSaysWhy() throws Exception {
		// Four a minute: within two minutes' worth one is refused, whatever went before.
		Optional<String> refused = Optional.empty();
		for (int i = 0; i < 10 && refused.isEmpty(); i++) {
			HttpResponse<String> response = this.endpoint.get("/burn?cpuMillis=1", "text/plain", "X-Spanprofile",
					"s3cret-token");
			String timing = response.headers().firstValue("Server-Timing").orElseThrow();
			if (!SPAN_TIMING.matcher(timing).matches()) {
				refused = Optional.of(timing);
				assertThat(response.headers().firstValue("Link")).isEmpty();
				assertThat(response.body()).isEqualTo("burnt");
			}
		}
		assertThat(refused).hasValue("spanprofile;desc=\"not profiled: rate limit\"");
	}

	@Test
	@Order(5)
	void captureForcesTheNextRequestsOfANameAndNoOthers() throws Exception {
		Set<String> before = this.endpoint.spanIds();
		HttpResponse<String> started = post("{\"capture\": \"http get /burn\", \"count\": 2, \"within\": \"1m\"}");
		assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
		assertThat(started.body()).contains("\"name\":\"http get /burn\"").contains("\"count\":2");
		this.endpoint.get("/wait?millis=1", "text/plain");
		HttpResponse<String> first = this.endpoint.get("/burn?cpuMillis=1", "text/plain");
		assertThat(first.body()).isEqualTo("burnt");
		// Its caller did not ask: no span id, no actuator path in its answer.
		assertThat(first.headers().firstValue("Server-Timing")).isEmpty();
		assertThat(first.headers().firstValue("Link")).isEmpty();
		// In progress: the list and its page say so.
		String list = this.endpoint.get("/actuator/spanprofile?limit=1", "application/json").body();
		assertThat(list).contains("\"captures\":[{\"name\":\"http get /burn\",\"count\":2,\"captured\":1,");
		assertThat(this.endpoint.get("/actuator/spanprofile", "text/html").body())
			.contains("Capturing &#39;http get /burn&#39;: 1 of 2 requests, ");
		this.profiler.collectNow();
		assertThat(this.endpoint.get("/actuator/spanprofile/names?name=http%20get%20/burn&format=html", "text/html")
			.body()).contains("Capturing &#39;http get /burn&#39;: 1 of 2 requests, ");
		for (int i = 0; i < 2; i++) {
			assertThat(this.endpoint.get("/burn?cpuMillis=1", "text/plain").body()).isEqualTo("burnt");
		}
		this.profiler.collectNow();
		java.util.List<Map<String, Object>> captured = this.endpoint.spans("?limit=1000")
			.stream()
			.filter((span) -> !before.contains(span.get("spanId")))
			.toList();
		// The first two of the name, none of another name, not the third.
		assertThat(captured).extracting((span) -> span.get("name")).containsExactly("http get /burn", "http get /burn");
		assertThat(captured).allSatisfy((span) -> assertThat(span).containsEntry("retainedAs", "forced")
			.containsEntry("forced", true)
			.containsEntry("captured", "http get /burn"));
		assertThat(this.endpoint.get("/actuator/spanprofile?name=burn", "text/html").body())
			.contains("captured (http get /burn)");
		assertThat(this.endpoint.get("/actuator/spanprofile?limit=1", "application/json").body())
			.doesNotContain("\"captures\"");
		// Over by itself: nothing left to cancel.
		HttpResponse<String> cancelled = this.endpoint.delete("/actuator/spanprofile");
		assertThat(cancelled.body()).contains("\"cancelled\":0");
	}

	@Test
	@Order(6)
	void badCaptureIsA400NamingTheFieldAndChangesNothing() throws Exception {
		assertThat(post("{\"capture\": \"http get /burn\", \"count\": 5000}").body())
			.contains("count must be a whole number from 0 (cancel) to 1000");
		assertThat(post("{\"capture\": \"http get /burn\", \"count\": 5, \"within\": \"soon\"}").body())
			.contains("within must be a duration");
		assertThat(post("{\"capture\": \"http get /burn\", \"count\": 5, \"within\": \"2h\"}").body())
			.contains("within must be more than 0 and at most 1h");
		assertThat(post("{\"capture\": \"burn\", \"count\": 5}").body()).contains("capture must be");
		HttpResponse<String> bad = post("{\"count\": 5}");
		assertThat(bad.statusCode()).isEqualTo(400);
		assertThat(bad.body()).contains("capture must be");
		HttpResponse<String> unknown = post("{\"capture\": \"/burn\", \"count\": 5, \"cuont\": 7}");
		assertThat(unknown.statusCode()).isEqualTo(400);
		assertThat(unknown.body()).contains("unknown: cuont.");
		HttpResponse<String> mixed = post("{\"capture\": \"/burn\", \"count\": 5, \"enabled\": false}");
		assertThat(mixed.statusCode()).isEqualTo(400);
		assertThat(mixed.body()).contains("come alone");
		HttpResponse<String> left = this.endpoint.delete("/actuator/spanprofile");
		assertThat(left.body()).contains("\"cancelled\":0").contains("\"captures\":[]");
		assertThat(this.profiler.status().running()).isTrue();
	}

	@Test
	@Order(7)
	void captureOfARouteKeepsThatRouteOnlyNotAnotherItsPatternMatches() throws Exception {
		Set<String> before = this.endpoint.spanIds();
		HttpResponse<String> started = post(
				"{\"capture\": \"http get /pets/{petId}\", \"count\": 2, \"within\": \"1m\"}");
		assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
		// Its path matches /pets/{petId}, but another route serves it.
		assertThat(this.endpoint.get("/pets/new", "text/plain").body()).isEqualTo("new pet");
		assertThat(this.endpoint.get("/pets/7", "text/plain").body()).isEqualTo("pet 7");
		assertThat(this.endpoint.get("/actuator/spanprofile?limit=1", "application/json").body())
			.contains("\"captures\":[{\"name\":\"http get /pets/{petId}\",\"count\":2,\"captured\":1,");
		assertThat(this.endpoint.get("/pets/new", "text/plain").body()).isEqualTo("new pet");
		assertThat(this.endpoint.get("/pets/8", "text/plain").body()).isEqualTo("pet 8");
		this.profiler.collectNow();
		java.util.List<Map<String, Object>> spans = this.endpoint.spans("?limit=1000")
			.stream()
			.filter((span) -> !before.contains(span.get("spanId")))
			.toList();
		assertThat(spans).filteredOn((span) -> span.containsKey("captured"))
			.extracting((span) -> span.get("name"))
			.containsExactly("http get /pets/{petId}", "http get /pets/{petId}");
		assertThat(spans).filteredOn((span) -> "http get /pets/new".equals(span.get("name")))
			.allSatisfy((span) -> assertThat(span).containsEntry("forced", false).doesNotContainKey("captured"));
		assertThat(this.endpoint.get("/actuator/spanprofile?limit=1", "application/json").body())
			.doesNotContain("\"captures\"");
	}

	/**
	 * The span list's form, in Chromium under the list's policy: starts a capture that
	 * the list then shows, shows the endpoint's message for a bad count, and cancels.
	 */
	@Test
	@Order(8)
	void theListsFormStartsACaptureShowsWhyOneIsRefusedAndCancels() throws Exception {
		try (Chromium chromium = Chromium.start()) {
			String list = this.endpoint.url("/actuator/spanprofile");
			chromium.open(list, "!!window.spanprofileIndex");
			WebElement form = chromium.driver.findElement(By.id("capture-form"));
			assertThat(form.isDisplayed()).as("shown by the page's script").isTrue();
			assertThat(captureList(chromium)).isEqualTo("None in progress.");
			type(chromium, "capture-name", "http get /burn");
			type(chromium, "capture-count", "3");
			type(chromium, "capture-within", "1m");
			form.findElement(By.cssSelector("button[type=submit]")).click();
			// On success the page reloads the list, which now shows the capture.
			chromium.waitUntil(() -> captureList(chromium).startsWith("Capturing 'http get /burn': 0 of 3 requests, "));
			assertThat(this.endpoint.get("/actuator/spanprofile?limit=1", "application/json").body())
				.contains("\"captures\":[{\"name\":\"http get /burn\",\"count\":3,\"captured\":0,");

			assertThat(this.endpoint.get("/burn?cpuMillis=1", "text/plain").body()).isEqualTo("burnt");
			this.profiler.collectNow();
			chromium.open(list, "!!window.spanprofileIndex");
			assertThat(captureList(chromium)).startsWith("Capturing 'http get /burn': 1 of 3 requests, ");
			// The form offers the names listed, the captured request's among them.
			assertThat(chromium.script("return Array.from(document.querySelectorAll('#capture-names option'))"
					+ ".map(function (o) { return o.value; })"))
				.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
				.contains("http get /burn");

			type(chromium, "capture-name", "http get /burn");
			type(chromium, "capture-count", "5000");
			chromium.driver.findElement(By.cssSelector("#capture-form button[type=submit]")).click();
			WebElement status = chromium.driver.findElement(By.id("capture-status"));
			chromium.waitUntil(() -> status.getText().contains("count must be a whole number from 0 (cancel) to 1000"));
			assertThat(status.getAttribute("class")).contains("failed");
			// Refused: nothing changed, and the page stayed as it was.
			assertThat(captureList(chromium)).startsWith("Capturing 'http get /burn': 1 of 3 requests, ");
			assertThat(this.endpoint.get("/actuator/spanprofile?limit=1", "application/json").body())
				.contains("\"count\":3,\"captured\":1,");
			chromium.screenshot("capture-form.png");

			WebElement cancel = chromium.driver.findElement(By.cssSelector("#capture-list .capture-cancel"));
			assertThat(cancel.getAttribute("data-name")).isEqualTo("http get /burn");
			cancel.click();
			chromium.waitUntil(() -> captureList(chromium).equals("None in progress."));
			assertThat(this.endpoint.get("/actuator/spanprofile?limit=1", "application/json").body())
				.doesNotContain("\"captures\"");
			assertThat(chromium.cspViolations()).isEmpty();
		}
	}

	private static void type(Chromium chromium, String id, String text) {
		WebElement input = chromium.driver.findElement(By.id(id));
		input.clear();
		input.sendKeys(text);
	}

	/**
	 * The text of the list's captures, or "" while the page reloads (its elements are
	 * gone, or the script cannot run meanwhile).
	 */
	private static String captureList(Chromium chromium) {
		try {
			Object text = chromium.script("var list = document.getElementById('capture-list');"
					+ " return list ? list.innerText.trim() : '';");
			return (text != null) ? text.toString() : "";
		}
		catch (org.openqa.selenium.WebDriverException ex) {
			return "";
		}
	}

	private HttpResponse<String> post(String json) throws Exception {
		return java.net.http.HttpClient.newHttpClient()
			.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(this.endpoint.url("/actuator/spanprofile")))
				.header("Content-Type", "application/json")
				.POST(java.net.http.HttpRequest.BodyPublishers.ofString(json))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** Two routes, one of whose pattern also matches the other's path. */
	@org.springframework.web.bind.annotation.RestController
	static class Pets {

		@org.springframework.web.bind.annotation.GetMapping("/pets/new")
		String newPet() {
			return "new pet";
		}

		@org.springframework.web.bind.annotation.GetMapping("/pets/{petId}")
		String pet(@org.springframework.web.bind.annotation.PathVariable int petId) {
			return "pet " + petId;
		}

	}

	private static Map<String, java.util.List<String>> headersBut(HttpResponse<String> response) {
		Map<String, java.util.List<String>> headers = new java.util.TreeMap<>(response.headers().map());
		headers.remove("date");
		return headers;
	}

}
