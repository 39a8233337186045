package dev.spanprofile.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Turning profiling off and on again through the endpoint, on a real server with real
 * samples.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class SpanProfileSwitchWebTests {

	private static final String BURN = "http get /burn";

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@AfterEach
	void leaveItRunning() throws Exception {
		post("{\"event\": \"cpu\", \"interval\": \"10ms\"}", 200);
		this.profiler.start();
	}

	@Test
	void whatIsSampledChangesWithoutARestartAndABadValueChangesNothing() throws Exception {
		Map<String, Object> changed = post("{\"event\": \"cpu,wall\", \"interval\": \"20ms\"}", 200);
		assertThat(changed.get("running")).isEqualTo(true);
		assertThat(changed.get("event")).asString().startsWith("cpu,wall");
		assertThat(changed.get("intervalMillis")).isEqualTo(20.0);
		// A request of its own name: the other tests count the /burn requests.
		get("/wait?millis=400");
		Map<String, Object> span = awaitCompleteSpans("http get /wait", 1).get(0);
		HttpResponse<String> wall = get("/actuator/spanprofile/" + span.get("spanId") + "?event=wall");
		assertThat(wall.statusCode()).as(wall.body()).isEqualTo(200);
		Map<String, Object> wallGraph = json.readValue(wall.body(), new TypeReference<>() {
		});
		// Wall-clock samples every 20 ms of the request's life, the way the new setting
		// samples: 10 ms would give twice as many.
		double expected = ((Number) span.get("durationMillis")).doubleValue() / 20;
		assertThat((double) ((Number) wallGraph.get("samples")).longValue())
			.as("wall samples of a %s ms request at 20 ms", span.get("durationMillis"))
			.isBetween(0.7 * expected, 1.2 * expected + 1);

		assertThat(post("{\"event\": \"cpu,bogus\"}", 400).get("message")).asString()
			.contains("cpu, itimer, ctimer, wall, alloc and lock")
			.contains("was 'cpu,bogus'");
		assertThat(post("{\"interval\": \"soon\"}", 400).get("message")).asString()
			.isEqualTo("interval must be a duration such as 10ms or 1s, was 'soon'");
		assertThat(post("{\"event\": \"cpu,ctimer\"}", 400).get("message")).asString()
			.contains("At most one of cpu, itimer and ctimer");
		Map<String, Object> unchanged = profilerStatus();
		assertThat(unchanged.get("event")).asString().startsWith("cpu,wall");
		assertThat(unchanged.get("intervalMillis")).isEqualTo(20.0);
		assertThat(unchanged.get("running")).isEqualTo(true);
	}

	private Map<String, Object> profilerStatus() throws Exception {
		HttpResponse<String> response = get("/actuator/spanprofile");
		// The list's body leads with the engine's status.
		return json.readValue(response.body(), new TypeReference<>() {
		});
	}

	@Test
	void stopKeepsStoredProfilesAndTakesNoNewSamplesUntilStartedAgain() throws Exception {
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
		get("/burn?cpuMillis=300");
		Map<String, Object> before = awaitCompleteSpans(BURN, 1).get(0);
		long samplesBefore = samples(before);
		assertThat(samplesBefore).isGreaterThan(5);

		Map<String, Object> stopped = post("{\"enabled\": false}", 200);
		assertThat(stopped.get("running")).isEqualTo(false);
		assertThat(stopped.get("problem")).isEqualTo("stopped");
		long attributedWhenStopped = this.profiler.attributionStats().attributed();

		get("/burn?cpuMillis=300");
		this.profiler.collectNow();
		List<Map<String, Object>> whileStopped = spans(BURN);
		assertThat(whileStopped).as("a request while stopped is not stored").hasSize(1);
		assertThat(whileStopped.get(0).get("spanId")).isEqualTo(before.get("spanId"));
		assertThat(samples(whileStopped.get(0))).isEqualTo(samplesBefore);
		assertThat(this.profiler.attributionStats().attributed()).isEqualTo(attributedWhenStopped);
		HttpResponse<String> graph = get("/actuator/spanprofile/" + before.get("spanId"));
		assertThat(graph.statusCode()).isEqualTo(200);
		assertThat(graph.body()).contains("recognisablyHotMethod");

		Map<String, Object> restarted = post("{\"enabled\": true}", 200);
		assertThat(restarted.get("running")).isEqualTo(true);
		assertThat(restarted).doesNotContainKey("problem");
		get("/burn?cpuMillis=300");
		List<Map<String, Object>> after = awaitCompleteSpans(BURN, 2);
		assertThat(after.get(0).get("spanId")).isNotEqualTo(before.get("spanId"));
		assertThat(samples(after.get(0))).as("samples after the restart").isGreaterThan(5);
		assertThat(samples(after.get(1))).isEqualTo(samplesBefore);
	}

	@Test
	void enablingTwiceOrDisablingTwiceIsHarmless() throws Exception {
		assertThat(post("{\"enabled\": true}", 200).get("running")).isEqualTo(true);
		assertThat(post("{\"enabled\": false}", 200).get("running")).isEqualTo(false);
		assertThat(post("{\"enabled\": \"FALSE\"}", 200).get("running")).isEqualTo(false);
		assertThat(post("{\"enabled\": true}", 200).get("running")).isEqualTo(true);
	}

	@Test
	void missingOrInvalidValueGivesAJsonMessage() throws Exception {
		assertThat(post("{}", 400).get("message")).asString().contains("\"enabled\": true");
		assertThat(post("{\"enabled\": \"maybe\"}", 400).get("message")).asString()
			.isEqualTo("enabled must be true or false, was 'maybe'");
		assertThat(post("{\"enabled\": 1}", 400).get("message")).asString().contains("was '1'");
		assertThat(this.profiler.status().running()).isTrue();
	}

	private List<Map<String, Object>> awaitCompleteSpans(String name, int count) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		List<Map<String, Object>> spans = List.of();
		while (System.nanoTime() < deadline) {
			this.profiler.collectNow();
			spans = spans(name);
			if (spans.size() >= count && spans.stream().allMatch((span) -> Boolean.TRUE.equals(span.get("complete")))) {
				return spans;
			}
			Thread.sleep(100);
		}
		throw new AssertionError("Expected " + count + " complete spans named " + name + ", found " + spans);
	}

	private List<Map<String, Object>> spans(String name) throws Exception {
		HttpResponse<String> response = get("/actuator/spanprofile");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		Map<String, Object> body = json.readValue(response.body(), new TypeReference<>() {
		});
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> spans = (List<Map<String, Object>>) body.get("spans");
		return spans.stream().filter((span) -> name.equals(span.get("name"))).toList();
	}

	private static long samples(Map<String, Object> span) {
		return ((Number) span.get("samples")).longValue();
	}

	private Map<String, Object> post(String body, int expectedStatus) throws Exception {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/spanprofile"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(expectedStatus);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).contains("json"));
		return json.readValue(response.body(), new TypeReference<>() {
		});
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.header("Accept", "application/json")
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
