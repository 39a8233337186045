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
 * The whole path on a real server: a traced request burns CPU in a known method, and the
 * actuator endpoint serves that request's span with the method in its flame graph.
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
		assertThat(collapsed.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/plain"));
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
		assertThat(tree.body())
			.contains("dev.spanprofile.actuate.BurnApplication$BurnController.recognisablyHotMethod");
		@SuppressWarnings("unchecked")
		Map<String, Object> root = (Map<String, Object>) body.get("flameGraph");
		assertThat(root.get("name")).isEqualTo("http get /burn");
		assertThat(((Number) root.get("value")).longValue()).isEqualTo(all);
	}

	/**
	 * The JSON contract: each body's keys in their order, an absent optional key left out
	 * and a null value written as null, whatever builds the body.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void jsonBodiesKeepTheirKeysInOrder() throws Exception {
		this.endpoint.get("/burn?cpuMillis=200", "text/plain");
		String spanId = (String) this.endpoint.awaitCompleteSpan("http get /burn").get("spanId");
		HttpResponse<String> list = this.endpoint.get("/actuator/spanprofile?name=burn", "application/json");
		Map<String, Object> body = this.endpoint.readJson(list.body());
		assertKeys(body, concat(ENGINE_KEYS, List.of("captures", "spans")));
		assertKeys((Map<String, Object>) body.get("samples"), List.of("attributed", "outsideSpans", "unknown"));
		Map<String, Object> span = ((List<Map<String, Object>>) body.get("spans")).get(0);
		assertKeys(span, SPAN_KEYS);
		// A request's span has no parent here: the key is there, its value null; no other
		// key is written as null.
		assertThat(span).containsEntry("parentSpanId", null);
		assertThat(list.body().replace("\"parentSpanId\":null", "")).doesNotContain(":null");

		Map<String, Object> graph = this.endpoint.json("/actuator/spanprofile/" + spanId);
		List<String> keys = List.copyOf(graph.keySet());
		List<String> engine = keys.subList(0, keys.indexOf("flameGraphEvent"));
		assertThat(engine).isEqualTo(present(ENGINE_KEYS, graph));
		// In a graph's body, samples is the graph's count, in the place of the engine's.
		assertThat(graph.get("samples")).isInstanceOf(Number.class);
		assertThat(keys.subList(engine.size(), keys.size())).startsWith("flameGraphEvent")
			.containsSubsequence("span", "timeBreakdown", "timeline", "flameGraph")
			.containsSubsequence("timeBreakdown", "versusTypical", "timeline")
			.endsWith("flameGraph")
			.doesNotContain("samples");
		assertKeys((Map<String, Object>) graph.get("span"), SPAN_KEYS);

		HttpResponse<String> names = this.endpoint.get("/actuator/spanprofile/names", "application/json");
		Map<String, Object> nameList = this.endpoint.readJson(names.body());
		assertKeys(nameList, List.of("windowSeconds", "names"));
		Map<String, Object> name = ((List<Map<String, Object>>) nameList.get("names")).get(0);
		assertKeys(name,
				List.of("name", "count", "sampled", "unsampled", "unsampledProfiled", "errors", "p50Millis",
						"p90Millis", "p99Millis", "maxMillis", "p99MillisPerBucket", "samples", "waits", "coreWait",
						"slowest"));
		assertKeys((Map<String, Object>) name.get("samples"), List.of("cpu", "wall"));
		assertThat(names.body()).doesNotContain(":null");

		Map<String, Object> breakdown = (Map<String, Object>) graph.get("timeBreakdown");
		assertKeys(breakdown,
				List.of("durationMillis", "cpuMillis", "cpuFrom", "cpuSamples", "cpuLowMillis", "cpuHighMillis",
						"profilerMillis", "waitsRecorded", "waitMillis", "waits", "coreWaitMillis",
						"coreWaitInWaitsMillis", "coreWaitBeforeMillis", "shortWaitMillis", "unaccountedMillis",
						"overlapMillis", "note", "roundTrips", "requests", "handOff", "throttling"));
		Map<String, Object> timeline = (Map<String, Object>) graph.get("timeline");
		assertKeys(timeline, List.of("durationMillis", "inFlight", "lanes", "entries", "truncated", "droppedSamples",
				"note", "partialWaits"));
		assertThat((List<?>) timeline.get("entries")).isNotEmpty();
		assertKeys(((List<Map<String, Object>>) timeline.get("lanes")).get(0), List.of("thread", "threadId"));
		assertKeys(((List<Map<String, Object>>) timeline.get("entries")).get(0),
				List.of("lane", "kind", "startMillis", "endMillis", "label"));
		Map<String, Object> stretch = this.endpoint.json("/actuator/spanprofile/" + spanId + "?from=0&to=1");
		assertKeys((Map<String, Object>) stretch.get("stretch"), List.of("fromMillis", "toMillis", "partialWaits"));

		// The name's own route, its slash a path separator as a browser sends it.
		String byName = "/actuator/spanprofile/names/http%20get%20/burn";
		HttpResponse<String> whole = this.endpoint.get(byName, "application/json");
		Map<String, Object> profile = this.endpoint.readJson(whole.body());
		List<String> nameKeys = List.of("flameGraphEvent", "name", "windowSeconds", "from", "to", "minDurationMillis",
				"maxDurationMillis", "spans", "unsampledSpans", "timeBreakdown", "heatmap", "flameGraph");
		// A name's graph, like a span's, has its own samples count in the place of the
		// engine's.
		assertKeys(profile, concat(ENGINE_KEYS, nameKeys));
		assertThat(profile.get("samples")).isInstanceOf(Number.class);
		Map<String, Object> heatmap = (Map<String, Object>) profile.get("heatmap");
		assertKeys(heatmap, List.of("startTimes", "bandEdgesMillis", "counts", "errors"));
		// No key is written as null (an unbounded top band's edge is, inside the list).
		assertThat(whole.body()).doesNotContain(":null");
		List<String> starts = (List<String>) heatmap.get("startTimes");
		String selection = "?from=" + starts.get(0) + "&to=" + starts.get(starts.size() - 1) + "&minDurationMillis=0";
		Map<String, Object> selected = this.endpoint.json(byName + selection);
		assertKeys(selected, concat(ENGINE_KEYS, nameKeys));
		assertThat(selected).containsKeys("from", "to", "minDurationMillis").doesNotContainKey("maxDurationMillis");
		assertThat(this.endpoint.json(byName + selection + "&maxDurationMillis=100000"))
			.containsKey("maxDurationMillis");

		List<String> diffKeys = List.of("flameGraphEvent", "name", "spanId", "durationMillis", "windowSeconds",
				"comparison", "thresholdMillis", "slowSpans", "typicalSpans", "largestDifference", "slowBreakdown",
				"typicalBreakdown", "difference", "flameGraph");
		// A comparison has no count of its own: samples are the engine's, where they
		// went.
		Map<String, Object> typical = this.endpoint.json(byName + "?compare=typical");
		assertKeys(typical, concat(ENGINE_KEYS, diffKeys));
		assertKeys((Map<String, Object>) typical.get("samples"), List.of("attributed", "outsideSpans", "unknown"));
		assertThat(typical).doesNotContainKeys("spanId", "durationMillis");
		Map<String, Object> rest = this.endpoint.json(byName + selection + "&compare=rest");
		assertKeys(rest, concat(ENGINE_KEYS, diffKeys));
		assertThat(rest).containsEntry("comparison", "rest");
		Map<String, Object> one = this.endpoint.json("/actuator/spanprofile/" + spanId + "?compare=typical");
		assertKeys(one, concat(ENGINE_KEYS, diffKeys));
		assertThat(one).containsEntry("spanId", spanId).containsKey("durationMillis");
	}

	/**
	 * The wire contract: each body type's field names and types, against a golden shape
	 * per type (see {@link JsonShape}); a renamed, removed, added or retyped field fails
	 * here, naming the file.
	 */
	@Test
	void servedBodiesHaveTheirGoldenShapes() throws Exception {
		this.endpoint.get("/burn?cpuMillis=200", "text/plain");
		String spanId = (String) this.endpoint.awaitCompleteSpan("http get /burn").get("spanId");
		String span = "/actuator/spanprofile/" + spanId;
		String byName = "/actuator/spanprofile/names/http%20get%20/burn";
		assertGolden("/actuator/spanprofile?name=burn", "span-list.json");
		assertGolden(span, "span-graph.json");
		assertGolden(span + "?from=0&to=1", "span-graph.json");
		assertGolden(span + "?compare=typical", "comparison.json");
		assertGolden("/actuator/spanprofile/names", "name-list.json");
		assertGolden(byName, "name-graph.json");
		assertGolden(byName + "?compare=typical", "comparison.json");
		assertGolden("/actuator/spanprofile/" + "0".repeat(15) + "x", "error.json");
	}

	private void assertGolden(String path, String golden) throws Exception {
		HttpResponse<String> response = this.endpoint.get(path, "application/json");
		assertThat(response.headers().firstValue("Content-Type")).as(path)
			.hasValueSatisfying((type) -> assertThat(type).contains("json"));
		JsonShape.assertMatchesGolden(response.body(), golden);
	}

	private static final List<String> ENGINE_KEYS = List.of("engine", "event", "intervalMillis", "running", "problem",
			"note", "rootSpanOnly", "samples");

	private static final List<String> SPAN_KEYS = List.of("traceId", "spanId", "parentSpanId", "localRootSpanId",
			"name", "kind", "status", "thread", "startTime", "durationMillis", "inFlight", "complete", "retainedAs",
			"forced", "captured", "samples", "samplesByEvent", "allocatedBytes", "lockWaitMillis", "waitMillis",
			"displayName", "firstAfterStart");

	/**
	 * The keys are {@code expected} in that order, less those that are optional and
	 * absent here.
	 */
	private static void assertKeys(Map<String, Object> body, List<String> expected) {
		assertThat(List.copyOf(body.keySet())).as("keys of %s", body).isEqualTo(present(expected, body));
		assertThat(body.keySet()).isNotEmpty();
	}

	private static List<String> present(List<String> keys, Map<String, Object> body) {
		return keys.stream().filter((key) -> !OPTIONAL.contains(key) || body.containsKey(key)).toList();
	}

	/** Keys left out when they do not apply. */
	private static final java.util.Set<String> OPTIONAL = java.util.Set.of("problem", "note", "samplesByEvent",
			"allocatedBytes", "lockWaitMillis", "waitMillis", "displayName", "waits", "cpuMillis", "cpuFrom",
			"cpuSamples", "cpuLowMillis", "cpuHighMillis", "requests", "slowBreakdown", "typicalBreakdown",
			"difference", "profilerMillis", "coreWaitMillis", "coreWaitInWaitsMillis", "coreWaitBeforeMillis",
			"shortWaitMillis", "overlapMillis", "droppedSamples", "label", "from", "to", "minDurationMillis",
			"maxDurationMillis", "spanId", "durationMillis", "largestDifference", "roundTrips", "handOff", "throttling",
			"captured", "captures", "firstAfterStart", "coreWait");

	private static List<String> concat(List<String> first, List<String> second) {
		return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
	}

	@Test
	void malformedAndUnknownIdsGiveJsonErrors() throws Exception {
		for (String accept : new String[] { "application/json", "text/plain" }) {
			HttpResponse<String> malformed = this.endpoint.get("/actuator/spanprofile/not-a-span", accept);
			assertThat(malformed.statusCode()).isEqualTo(400);
			assertThat(malformed.body()).contains("\"message\"").contains("16 hexadecimal").doesNotContain("Exception");
			assertThat(List.copyOf(this.endpoint.readJson(malformed.body()).keySet())).containsExactly("status",
					"error", "message");
			HttpResponse<String> unknown = this.endpoint.get("/actuator/spanprofile/0123456789abcdef", accept);
			assertThat(unknown.statusCode()).isEqualTo(404);
			assertThat(unknown.body()).contains("\"message\"").contains("0123456789abcdef");
		}
		HttpResponse<String> badLimit = this.endpoint.get("/actuator/spanprofile?limit=-3", "application/json");
		assertThat(badLimit.statusCode()).isEqualTo(400);
		assertThat(badLimit.body()).contains("limit must be at least 1");
		HttpResponse<String> badDuration = this.endpoint.get("/actuator/spanprofile?minDurationMillis=abc",
				"application/json");
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
