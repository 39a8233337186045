package dev.spanprofile.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import tools.jackson.core.type.TypeReference;
import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole path on a real server: a traced request burns CPU in a known method, and the actuator endpoint serves
 * that request's span with the method in its flame graph.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class SpanProfileEndpointWebTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@BeforeEach
	void profilerRuns() {
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
	}

	@Test
	void servesTheFlameGraphOfARequestSpanAsJsonAndCollapsedStacks() throws Exception {
		assertThat(get("/burn?cpuMillis=600", "text/plain").body()).isEqualTo("burnt");
		Map<String, Object> span = awaitCompleteSpan("http get /burn");
		String spanId = (String) span.get("spanId");
		assertThat(span.get("inFlight")).isEqualTo(false);
		assertThat(((Number) span.get("samples")).longValue()).isGreaterThan(20);

		HttpResponse<String> collapsed = get("/actuator/spanprofile/" + spanId, "text/plain");
		assertThat(collapsed.statusCode()).isEqualTo(200);
		assertThat(collapsed.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/plain"));
		long hot = 0;
		long all = 0;
		for (String line : collapsed.body().split("\n")) {
			long count = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			all += count;
			if (line.contains("BurnController.recognisablyHotMethod")) {
				hot += count;
			}
		}
		assertThat(hot).as("samples in the hot method of %d", all).isGreaterThan(all / 2);

		HttpResponse<String> tree = get("/actuator/spanprofile/" + spanId, "application/json");
		assertThat(tree.statusCode()).isEqualTo(200);
		Map<String, Object> body = json.readValue(tree.body(), new TypeReference<>() {
		});
		assertThat(body).containsKeys("engine", "event", "intervalMillis", "span", "flameGraph");
		assertThat(tree.body()).contains("dev.spanprofile.actuate.BurnApplication$BurnController.recognisablyHotMethod");
		@SuppressWarnings("unchecked")
		Map<String, Object> root = (Map<String, Object>) body.get("flameGraph");
		assertThat(root.get("name")).isEqualTo("http get /burn");
		assertThat(((Number) root.get("value")).longValue()).isEqualTo(all);
	}

	@Test
	void malformedAndUnknownIdsGiveJsonErrors() throws Exception {
		for (String accept : new String[] { "application/json", "text/plain" }) {
			HttpResponse<String> malformed = get("/actuator/spanprofile/not-a-span", accept);
			assertThat(malformed.statusCode()).isEqualTo(400);
			assertThat(malformed.body()).contains("\"message\"").contains("16 hexadecimal").doesNotContain("Exception");
			HttpResponse<String> unknown = get("/actuator/spanprofile/0123456789abcdef", accept);
			assertThat(unknown.statusCode()).isEqualTo(404);
			assertThat(unknown.body()).contains("\"message\"").contains("0123456789abcdef");
		}
		HttpResponse<String> badLimit = get("/actuator/spanprofile?limit=-3", "application/json");
		assertThat(badLimit.statusCode()).isEqualTo(400);
		assertThat(badLimit.body()).contains("limit must be at least 1");
		HttpResponse<String> badDuration = get("/actuator/spanprofile?minDurationMillis=abc", "application/json");
		assertThat(badDuration.statusCode()).isEqualTo(400);
		assertThat(badDuration.body()).contains("minDurationMillis");
	}

	@Test
	void listFiltersByNameAndDurationAndLeavesOutActuatorRequests() throws Exception {
		get("/burn?cpuMillis=50", "text/plain");
		awaitCompleteSpan("http get /burn");
		for (int i = 0; i < 3; i++) {
			get("/actuator/spanprofile", "application/json");
		}
		this.profiler.collectNow();
		List<Map<String, Object>> all = spans("");
		assertThat(all).isNotEmpty();
		assertThat(all).allSatisfy((span) -> assertThat((String) span.get("name")).doesNotContain("actuator"));
		assertThat(spans("?name=" + URLEncoder.encode("GET /BURN", StandardCharsets.UTF_8))).isNotEmpty();
		assertThat(spans("?name=nothing-like-this")).isEmpty();
		assertThat(spans("?minDurationMillis=3600000")).isEmpty();
		assertThat(spans("?limit=1")).hasSize(1);
	}

	private Map<String, Object> awaitCompleteSpan(String name) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (System.nanoTime() < deadline) {
			this.profiler.collectNow();
			for (Map<String, Object> span : spans("?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8))) {
				if (name.equals(span.get("name")) && Boolean.TRUE.equals(span.get("complete"))) {
					return span;
				}
			}
			Thread.sleep(100);
		}
		throw new AssertionError("No complete span named " + name + " in " + spans(""));
	}

	private List<Map<String, Object>> spans(String query) throws Exception {
		HttpResponse<String> response = get("/actuator/spanprofile" + query, "application/json");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		Map<String, Object> body = json.readValue(response.body(), new TypeReference<>() {
		});
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> spans = (List<Map<String, Object>>) body.get("spans");
		return spans;
	}

	private HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.header("Accept", accept)
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
