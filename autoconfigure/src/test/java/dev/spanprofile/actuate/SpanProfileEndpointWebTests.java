package dev.spanprofile.actuate;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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
	void servesTheFlameGraphOfARequestSpanAsJsonAndCollapsedStacks() throws Exception {
		assertThat(this.endpoint.get("/burn?cpuMillis=600", "text/plain").body()).isEqualTo("burnt");
		Map<String, Object> span = this.endpoint.awaitCompleteSpan("http get /burn");
		String spanId = (String) span.get("spanId");
		assertThat(span.get("inFlight")).isEqualTo(false);
		assertThat(((Number) span.get("samples")).longValue()).isGreaterThan(20);

		HttpResponse<String> collapsed = this.endpoint.get("/actuator/spanprofile/" + spanId, "text/plain");
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

		HttpResponse<String> tree = this.endpoint.get("/actuator/spanprofile/" + spanId, "application/json");
		assertThat(tree.statusCode()).isEqualTo(200);
		Map<String, Object> body = this.endpoint.readJson(tree.body());
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
			HttpResponse<String> malformed = this.endpoint.get("/actuator/spanprofile/not-a-span", accept);
			assertThat(malformed.statusCode()).isEqualTo(400);
			assertThat(malformed.body()).contains("\"message\"").contains("16 hexadecimal").doesNotContain("Exception");
			HttpResponse<String> unknown = this.endpoint.get("/actuator/spanprofile/0123456789abcdef", accept);
			assertThat(unknown.statusCode()).isEqualTo(404);
			assertThat(unknown.body()).contains("\"message\"").contains("0123456789abcdef");
		}
		HttpResponse<String> badLimit = this.endpoint.get("/actuator/spanprofile?limit=-3", "application/json");
		assertThat(badLimit.statusCode()).isEqualTo(400);
		assertThat(badLimit.body()).contains("limit must be at least 1");
		HttpResponse<String> badDuration = this.endpoint.get("/actuator/spanprofile?minDurationMillis=abc", "application/json");
		assertThat(badDuration.statusCode()).isEqualTo(400);
		assertThat(badDuration.body()).contains("minDurationMillis");
	}

	@Test
	void listFiltersByNameAndDurationAndLeavesOutActuatorRequests() throws Exception {
		this.endpoint.get("/burn?cpuMillis=50", "text/plain");
		this.endpoint.awaitCompleteSpan("http get /burn");
		for (int i = 0; i < 3; i++) {
			this.endpoint.get("/actuator/spanprofile", "application/json");
		}
		this.profiler.collectNow();
		List<Map<String, Object>> all = this.endpoint.spans("");
		assertThat(all).isNotEmpty();
		assertThat(all).allSatisfy((span) -> assertThat((String) span.get("name")).doesNotContain("actuator"));
		assertThat(this.endpoint.spans("?name=" + URLEncoder.encode("GET /BURN", StandardCharsets.UTF_8))).isNotEmpty();
		assertThat(this.endpoint.spans("?name=nothing-like-this")).isEmpty();
		assertThat(this.endpoint.spans("?minDurationMillis=3600000")).isEmpty();
		assertThat(this.endpoint.spans("?limit=1")).hasSize(1);
	}

}
