package dev.spanprofile.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With Spring Security and a real filter chain, the endpoint is as protected as the
 * application makes its actuator: anonymous and under-privileged requests are turned away
 * before they see a span, an operator gets the flame graph.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false",
				"spring.autoconfigure.exclude="
						+ "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
@Import(ActuatorSecurityConfiguration.class)
@DirtiesContext
class SpanProfileEndpointSecurityTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String OPS = ActuatorSecurityConfiguration.OPS_USER + ":"
			+ ActuatorSecurityConfiguration.OPS_PASSWORD;

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Test
	void anonymousRequestsAreRejectedBeforeTheySeeASpan() throws Exception {
		String spanId = burnAndFindSpan();
		for (String path : List.of("/actuator/spanprofile", "/actuator/spanprofile/" + spanId)) {
			HttpResponse<String> response = get(path, null);
			assertThat(response.statusCode()).as(path).isEqualTo(401);
			assertThat(response.headers().firstValue("WWW-Authenticate")).as(path)
				.hasValueSatisfying((challenge) -> assertThat(challenge).startsWith("Basic"));
			// The 401 body names the path asked for, nothing of what the endpoint holds.
			assertThat(response.body()).as(path).doesNotContain("traceId").doesNotContain("flameGraph");
		}
		// The chain is selective, not a blanket: public health and the application itself
		// stay reachable.
		assertThat(get("/actuator/health", null).statusCode()).isEqualTo(200);
	}

	@Test
	void wrongPasswordsAndMissingRolesAreRejected() throws Exception {
		String spanId = burnAndFindSpan();
		String path = "/actuator/spanprofile/" + spanId;
		assertThat(get(path, ActuatorSecurityConfiguration.OPS_USER + ":guess").statusCode()).isEqualTo(401);
		HttpResponse<String> developer = get(path,
				ActuatorSecurityConfiguration.DEV_USER + ":" + ActuatorSecurityConfiguration.DEV_PASSWORD);
		assertThat(developer.statusCode()).isEqualTo(403);
		assertThat(developer.body()).doesNotContain("flameGraph");
	}

	@Test
	void anOperatorGetsTheFlameGraph() throws Exception {
		String spanId = burnAndFindSpan();
		HttpResponse<String> response = get("/actuator/spanprofile/" + spanId, OPS);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"flameGraph\"")
			.contains("dev.spanprofile.actuate.BurnApplication$BurnController.recognisablyHotMethod");
	}

	/**
	 * A request to the application (not secured), then its span as the operator sees it
	 * in the list.
	 */
	private String burnAndFindSpan() throws Exception {
		assertThat(get("/burn?cpuMillis=300", null).statusCode()).isEqualTo(200);
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (System.nanoTime() < deadline) {
			this.profiler.collectNow();
			HttpResponse<String> list = get(
					"/actuator/spanprofile?name=" + URLEncoder.encode("http get /burn", StandardCharsets.UTF_8), OPS);
			assertThat(list.statusCode()).isEqualTo(200);
			Map<String, Object> body = json.readValue(list.body(), new TypeReference<>() {
			});
			@SuppressWarnings("unchecked")
			List<Map<String, Object>> spans = (List<Map<String, Object>>) body.get("spans");
			for (Map<String, Object> span : spans) {
				if (Boolean.TRUE.equals(span.get("complete")) && ((Number) span.get("samples")).longValue() > 10) {
					return (String) span.get("spanId");
				}
			}
			Thread.sleep(100);
		}
		throw new AssertionError("No complete /burn span with samples");
	}

	private HttpResponse<String> get(String path, String credentials) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("Accept", "application/json");
		if (credentials != null) {
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
