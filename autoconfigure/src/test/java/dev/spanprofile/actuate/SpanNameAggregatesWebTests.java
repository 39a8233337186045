package dev.spanprofile.actuate;

import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.ProfilerWork;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.aggregate.LatencyBands;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Span-name aggregates on a real application: 20 requests to {@code /owners/{ownerId}},
 * of which two (ids 10 and 20) take a slow path through {@code loadVisitHistorySlowly}
 * (300 ms CPU, then a 600 ms wait). The name's count, duration-restricted profiles,
 * slow-versus-typical diff and frame-to-spans lookup are checked against them. And
 * requests that tracing did not sample, counted and profiled under their route without
 * being stored as spans.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = {
				// Its sample counts are bounded for 10 ms, not the default 20 ms.
				"spanprofile.interval=10ms", "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpanNameAggregatesWebTests {

	private static final String NAME = "http get /owners/{ownerId}";

	private static final String SLOW_METHOD = "loadVisitHistorySlowly";

	private static final String NAMES = "/actuator/spanprofile/names";

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	EndpointClient endpoint;

	final List<Map<String, Object>> typical = new ArrayList<>();

	final List<Map<String, Object>> slow = new ArrayList<>();

	/** Edge between the typical and the slow requests' latency bands. */
	long splitMillis;

	@BeforeAll
	void sendRequests() throws Exception {
		this.endpoint = new EndpointClient(this.port, this.profiler);
		for (int id = 1; id <= 20; id++) {
			assertThat(this.endpoint.get("/owners/" + id, "text/plain").body()).isEqualTo("owner " + id);
		}
		// Every request's profile folded into the name: 20 spans counted and 20 profiles
		// merged.
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			this.profiler.collectNow();
			Map<String, Object> all = this.endpoint.json(NAMES + "?name=" + encode(NAME) + "&format=json");
			return ((Number) all.get("spans")).longValue() == 20;
		});
		// Requests were sent one after another: in start order, the n-th is owner n.
		List<Map<String, Object>> spans = new ArrayList<>(
				this.endpoint.spans("?name=" + encode("/owners/") + "&limit=1000"));
		spans.sort(Comparator.comparing((Map<String, Object> span) -> Instant.parse((String) span.get("startTime"))));
		for (int i = 0; i < spans.size(); i++) {
			((i + 1) % 10 == 0 ? this.slow : this.typical).add(spans.get(i));
		}
		assertThat(this.typical).hasSize(18);
		assertThat(this.slow).hasSize(2);
		double longestTypical = this.typical.stream()
			.mapToDouble(SpanNameAggregatesWebTests::millis)
			.max()
			.getAsDouble();
		double shortestSlow = this.slow.stream().mapToDouble(SpanNameAggregatesWebTests::millis).min().getAsDouble();
		long edge = LatencyBands.upperEdgeNanos(LatencyBands.of((long) (longestTypical * 1e6)));
		assertThat(shortestSlow * 1e6).as("slow and typical requests a latency band apart").isGreaterThan(edge);
		// Rounded up: a minimum just below the edge would select the typical requests'
		// band.
		this.splitMillis = (edge + 999_999) / 1_000_000;
	}

	@Test
	void theNameListCountsEveryRequest() throws Exception {
		Map<String, Object> list = this.endpoint.json(NAMES);
		assertThat(count(list, "windowSeconds")).isEqualTo(3600);
		Map<String, Object> owners = entry(list, NAME);
		assertThat(count(owners, "count")).isEqualTo(20);
		assertThat(count(owners, "errors")).isZero();
		double p50 = number(owners, "p50Millis");
		double p90 = number(owners, "p90Millis");
		double p99 = number(owners, "p99Millis");
		double max = number(owners, "maxMillis");
		double longestTypical = this.typical.stream()
			.mapToDouble(SpanNameAggregatesWebTests::millis)
			.max()
			.getAsDouble();
		double slowest = this.slow.stream().mapToDouble(SpanNameAggregatesWebTests::millis).max().getAsDouble();
		// p90 is the 18th of 20 durations, the longest typical request; two significant
		// digits.
		assertThat(p50).isLessThanOrEqualTo(p90);
		assertThat(p90).isBetween(longestTypical * 0.99, longestTypical * 1.01);
		assertThat(p99).isGreaterThan(longestTypical).isLessThanOrEqualTo(max);
		assertThat(max).isEqualTo(slowest, org.assertj.core.data.Offset.offset(0.01));
		@SuppressWarnings("unchecked")
		List<String> slowestIds = (List<String>) owners.get("slowest");
		assertThat(slowestIds).hasSize(5);
		assertThat(slowestIds.subList(0, 2)).containsExactlyInAnyOrderElementsOf(
				this.slow.stream().map((span) -> (String) span.get("spanId")).toList());
		@SuppressWarnings("unchecked")
		Map<String, Object> samples = (Map<String, Object>) owners.get("samples");
		assertThat(((Number) samples.get("cpu")).longValue()).isPositive();
		assertThat(count(this.endpoint.json(NAMES + "?window=15m"), "windowSeconds")).isEqualTo(900);
	}

	/**
	 * Requests whose incoming trace context says "not sampled" are dropped by Spring
	 * Boot's parent-based sampler, as nine in ten are at its default probability of 0.1
	 * (here, where every other request is sampled, the sampled and unsampled counts are
	 * known exactly).
	 */
	@Test
	void requestsTracingDidNotSampleCountUnderTheirRoute() throws Exception {
		String name = "http get /burn";
		int unsampled = 12;
		int sampled = 3;
		for (int i = 0; i < unsampled + sampled; i++) {
			HttpResponse<String> response = (i % 5 == 4) ? this.endpoint.get("/burn?cpuMillis=100", "text/plain")
					: this.endpoint.get("/burn?cpuMillis=100", "text/plain", "traceparent",
							String.format("00-%032x-%016x-00", 0xabc000L + i, 0xdef000L + i));
			assertThat(response.body()).isEqualTo("burnt");
		}
		// Calls to the actuator are left out, sampled or not.
		assertThat(this.endpoint
			.get(NAMES, "application/json", "traceparent", "00-0000000000000000000000000000abcd-000000000000abcd-00")
			.statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
			this.profiler.collectNow();
			Map<String, Object> burn = entryOrNull(this.endpoint.json(NAMES), name);
			// Every request counted, and every request's profile folded in (the sampled
			// ones' too).
			return burn != null && count(burn, "count") == unsampled + sampled
					&& count(burn, "unsampledProfiled") == unsampled
					&& count(this.endpoint.json(NAMES + "?name=" + encode(name) + "&format=json"), "spans") == unsampled
							+ sampled;
		});
		Map<String, Object> names = this.endpoint.json(NAMES);
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> all = (List<Map<String, Object>>) names.get("names");
		assertThat(all).extracting((entry) -> (String) entry.get("name")).noneMatch((n) -> n.contains("actuator"));
		Map<String, Object> burn = entry(names, name);
		assertThat(count(burn, "sampled")).isEqualTo(sampled);
		assertThat(count(burn, "unsampled")).isEqualTo(unsampled);
		@SuppressWarnings("unchecked")
		List<String> slowest = (List<String>) burn.get("slowest");
		List<Map<String, Object>> stored = this.endpoint.spans("?name=" + encode("/burn") + "&limit=1000");
		assertThat(stored).as("spans stored").hasSize(sampled);
		assertThat(stored).extracting((span) -> (String) span.get("spanId")).containsAll(slowest);
		Map<String, Object> profile = this.endpoint.json(NAMES + "?name=" + encode(name) + "&event=cpu");
		assertThat(count(profile, "spans")).isEqualTo(unsampled + sampled);
		assertThat(count(profile, "unsampledSpans")).isEqualTo(unsampled);
		String stacks = this.endpoint.get(NAMES + "?name=" + encode(name) + "&event=cpu&format=collapsed", "text/plain")
			.body();
		// 15 requests × 100 ms CPU at 10 ms; the 3 sampled ones alone would be 30.
		assertThat((double) EndpointClient.samplesWith(stacks, "recognisablyHotMethod")).isBetween(150 * 0.7,
				150 * 1.3);
	}

	@Test
	void aDurationRangeHoldsOnlyThatRangesRequests() throws Exception {
		String name = NAMES + "?name=" + encode(NAME);
		Map<String, Object> fast = this.endpoint.json(name + "&maxDurationMillis=" + (this.splitMillis - 1));
		assertThat(count(fast, "spans")).isEqualTo(18);
		String fastStacks = this.endpoint
			.get(name + "&maxDurationMillis=" + (this.splitMillis - 1) + "&format=collapsed", "text/plain")
			.body();
		assertThat(EndpointClient.samplesWith(fastStacks, SLOW_METHOD)).isZero();
		assertThat(EndpointClient.samplesWith(fastStacks, "renderOwnerPage")).isPositive();
		Map<String, Object> slowOnes = this.endpoint.json(name + "&minDurationMillis=" + this.splitMillis);
		assertThat(count(slowOnes, "spans")).isEqualTo(2);
		String slowStacks = this.endpoint
			.get(name + "&minDurationMillis=" + this.splitMillis + "&format=collapsed", "text/plain")
			.body();
		// 2 requests × 300 ms CPU at 10 ms.
		assertThat((double) EndpointClient.samplesWith(slowStacks, SLOW_METHOD)).isBetween(60 * 0.7, 60 * 1.3);
	}

	@Test
	void theDiffPutsTheSlowOnlyMethodOnTheSlowSideOnly() throws Exception {
		// Default threshold: above the band of the name's p90, the longest typical
		// request.
		Map<String, Object> diff = this.endpoint.json(NAMES + "?name=" + encode(NAME) + "&compare=typical");
		assertThat(count(diff, "slowSpans")).isEqualTo(2);
		assertThat(count(diff, "typicalSpans")).isEqualTo(18);
		assertThat(number(diff, "thresholdMillis")).isLessThanOrEqualTo(
				this.slow.stream().mapToDouble(SpanNameAggregatesWebTests::millis).min().getAsDouble());
		long[] sides = sides(diff.get("flameGraph"), SLOW_METHOD);
		assertThat(sides[1]).as("typical side").isZero();
		assertThat((double) sides[0]).isBetween(60 * 0.7, 60 * 1.3);
		long[] render = sides(diff.get("flameGraph"), "renderOwnerPage");
		// 20 ms CPU per request on both sides: about 2 samples per request each.
		assertThat((double) render[1] / 18)
			.as(() -> "typical side; each typical request's CPU samples " + this.typical.stream()
				.map((span) -> InclusiveSamples.count(this.profiler.store().find((String) span.get("spanId")),
						SampleKind.CPU))
				.toList() + ", " + this.profiler.attributionStats())
			.isBetween(2 * 0.6, 2 * 1.4);

		String collapsed = this.endpoint
			.get(NAMES + "?name=" + encode(NAME) + "&compare=typical&format=collapsed", "text/plain")
			.body();
		long slowColumn = 0;
		for (String line : collapsed.split("\n")) {
			String[] parts = line.split(" ");
			assertThat(parts.length).as(line).isGreaterThanOrEqualTo(3);
			if (line.contains(SLOW_METHOD)) {
				slowColumn += Long.parseLong(parts[parts.length - 2]);
				assertThat(parts[parts.length - 1]).as("typical column of " + line).isEqualTo("0");
			}
		}
		assertThat(slowColumn).isEqualTo(sides[0]);
	}

	@Test
	void oneSlowSpanAgainstTheTypicalOnes() throws Exception {
		String spanId = (String) this.slow.get(0).get("spanId");
		Map<String, Object> diff = this.endpoint.json("/actuator/spanprofile/" + spanId + "?compare=typical");
		assertThat(count(diff, "slowSpans")).isEqualTo(1);
		assertThat(count(diff, "typicalSpans")).isEqualTo(18);
		assertThat(diff.get("spanId")).isEqualTo(spanId);
		long[] sides = sides(diff.get("flameGraph"), SLOW_METHOD);
		assertThat(sides[1]).isZero();
		// The diff compares the request as its name folded it, the profiler's own samples
		// in (as the typical side holds them); its page's graph takes those out: a CPU
		// sample taken while async-profiler's own code ran on the thread (a signal
		// handler, its hook on a class being loaded) under the slow method, now and then.
		SpanRecord stored = this.profiler.store().find(spanId);
		StackTree folded = InclusiveSamples.of(stored, SampleKind.CPU);
		FrameTable frames = this.profiler.store().frames();
		// 300 ms CPU at 10 ms.
		assertThat(sides[0]).isEqualTo(samplesWith(folded, frames)).isBetween((long) (30 * 0.7), (long) (30 * 1.3));
		// The CPU graph, as the diff is: without event= a request that mostly waited (as
		// the slow ones do) opens on its waits.
		String own = this.endpoint.get("/actuator/spanprofile/" + spanId + "?event=cpu", "text/plain").body();
		assertThat(EndpointClient.samplesWith(own, SLOW_METHOD))
			.isEqualTo(samplesWith(ProfilerWork.split(folded, frames).application(), frames))
			.isBetween(sides[0] - 3, sides[0]);
	}

	private static long samplesWith(StackTree tree, FrameTable frames) {
		return EndpointClient.samplesWith(CollapsedStacks.render(tree, frames), SLOW_METHOD);
	}

	@Test
	@SuppressWarnings("unchecked")
	void aFrameLeadsToTheStoredSpansWithSamplesInIt() throws Exception {
		Map<String, Object> profile = this.endpoint.json(NAMES + "?name=" + encode(NAME));
		List<Object> widest = new ArrayList<>();
		widest(profile.get("flameGraph"), SLOW_METHOD, new ArrayList<>(), widest);
		assertThat(widest).as("a frame of %s", SLOW_METHOD).isNotEmpty();
		List<String> path = (List<String>) widest.get(0);
		long value = (Long) widest.get(1);
		Map<String, Object> spans = this.endpoint
			.json(NAMES + "?name=" + encode(NAME) + "&frame=" + encode(String.join(";", path)));
		List<Map<String, Object>> listed = (List<Map<String, Object>>) spans.get("spans");
		assertThat(listed).isNotEmpty();
		// The JSON contract, keys in their order.
		assertThat(List.copyOf(spans.keySet())).containsExactly("name", "frame", "flameGraphEvent", "spans");
		assertThat(listed).allSatisfy((span) -> assertThat(List.copyOf(span.keySet())).containsExactly("spanId",
				"traceId", "samples", "durationMillis"));
		assertThat(listed).extracting((span) -> span.get("spanId"))
			.isSubsetOf(this.slow.stream().map((span) -> span.get("spanId")).toList());
		// Every request is still stored: their samples through the frame add up to the
		// frame's width.
		assertThat(listed.stream().mapToLong((span) -> ((Number) span.get("samples")).longValue()).sum())
			.isEqualTo(value);
		assertThat(listed).isSortedAccordingTo(
				Comparator.comparingLong((Map<String, Object> span) -> ((Number) span.get("samples")).longValue())
					.reversed());
	}

	@Test
	void pagesAndOtherFormats() throws Exception {
		HttpResponse<String> list = this.endpoint.get(NAMES, EndpointClient.BROWSER_ACCEPT);
		assertThat(list.statusCode()).isEqualTo(200);
		assertThat(list.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(list.body()).contains("http get /owners/{ownerId}").contains("slow vs typical");
		HttpResponse<String> page = this.endpoint.get(NAMES + "?name=" + encode(NAME) + "&compare=typical",
				EndpointClient.BROWSER_ACCEPT);
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.body()).contains("\"diff\":{\"slowSpans\":2,\"typicalSpans\":18}");
		HttpResponse<byte[]> pprof = this.endpoint.getBytes(NAMES + "?name=" + encode(NAME) + "&format=pprof",
				"application/octet-stream");
		assertThat(pprof.statusCode()).isEqualTo(200);
		assertThat(pprof.body()[0] & 0xff).isEqualTo(0x1f);
		assertThat(pprof.body()[1] & 0xff).isEqualTo(0x8b);
		assertThat(this.endpoint.get("/actuator/spanprofile", EndpointClient.BROWSER_ACCEPT).body())
			.contains("href=\"spanprofile/names\"");
	}

	@Test
	void aNameHasARouteOfItsOwnAndTheQueryFormStillServesIt() throws Exception {
		String route = NAMES + "/" + pathOf(NAME);
		String query = NAMES + "?name=" + encode(NAME);
		Map<String, Object> typical = this.endpoint.json(route + "?maxDurationMillis=" + this.splitMillis);
		assertThat(typical.get("name")).isEqualTo(NAME);
		assertThat(count(typical, "spans")).isEqualTo(18);
		assertThat(typical.get("flameGraph"))
			.isEqualTo(this.endpoint.json(query + "&maxDurationMillis=" + this.splitMillis).get("flameGraph"));
		Map<String, Object> diff = this.endpoint.json(route + "?compare=typical");
		assertThat(count(diff, "slowSpans")).isEqualTo(2);
		assertThat(count(diff, "typicalSpans")).isEqualTo(18);
		HttpResponse<String> collapsed = this.endpoint.get(route, "text/plain");
		assertThat(collapsed.statusCode()).isEqualTo(200);
		assertThat(collapsed.body()).contains(SLOW_METHOD)
			.isEqualTo(this.endpoint.get(query + "&format=collapsed", "text/plain").body());
		// A browser is moved on to the query form, whose page links relative to the
		// endpoint's directory.
		HttpResponse<String> moved = this.endpoint.get(route + "?compare=typical", EndpointClient.BROWSER_ACCEPT);
		assertThat(moved.statusCode()).isEqualTo(200);
		assertThat(moved.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		java.util.regex.Matcher refresh = java.util.regex.Pattern.compile("content=\"0; url=([^\"]+)\"")
			.matcher(moved.body());
		assertThat(refresh.find()).as(moved.body()).isTrue();
		java.net.URI target = java.net.URI.create(this.endpoint.url(route))
			.resolve(refresh.group(1).replace("&amp;", "&"));
		assertThat(target.getPath()).isEqualTo(NAMES);
		HttpResponse<String> page = this.endpoint.get(target.getRawPath() + "?" + target.getRawQuery(),
				EndpointClient.BROWSER_ACCEPT);
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.body()).contains("\"diff\":{\"slowSpans\":2,\"typicalSpans\":18}");
		assertError(NAMES + "/" + pathOf("http get /nowhere"), 404, "No span named 'http get ");
		assertError(NAMES + "/" + pathOf(NAME) + "?format=pprof&compare=typical", 400, "pprof has no differential");
		assertError("/actuator/spanprofile/0123456789abcdef/owners", 404, "No such address");
	}

	/**
	 * A span name as path segments: each part between slashes percent-encoded, a space as
	 * %20.
	 */
	private static String pathOf(String name) {
		List<String> segments = new ArrayList<>();
		for (String segment : name.split("/", -1)) {
			segments.add(encode(segment).replace("+", "%20"));
		}
		return String.join("/", segments);
	}

	@Test
	void badInputGetsAMessage() throws Exception {
		String name = NAMES + "?name=" + encode(NAME);
		assertError(NAMES + "?window=abc", 400, "window must be");
		assertError(NAMES + "?window=0m", 400, "window must be positive");
		assertError(name + "&compare=faster", 400, "compare must be 'typical'");
		assertError(name + "&minDurationMillis=-1", 400, "minDurationMillis");
		assertError(name + "&minDurationMillis=x", 400, "minDurationMillis must be a number");
		assertError(name + "&minDurationMillis=500&maxDurationMillis=100", 400, "greater than");
		assertError(name + "&compare=typical&format=pprof", 400, "pprof has no differential form");
		assertError(NAMES + "?format=collapsed", 400, "json or html");
		assertError(NAMES + "?compare=typical", 400, "name= is needed");
		assertError(NAMES + "?name=" + encode("http get /nowhere"), 404, "No span named 'http get ");
		assertError("/actuator/spanprofile/0123456789abcdef?compare=typical", 404, "No span 0123456789abcdef");
	}

	private void assertError(String path, int status, String message) throws Exception {
		HttpResponse<String> response = this.endpoint.get(path, "application/json");
		assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(status);
		assertThat(response.body()).as(path).contains(message);
	}

	/**
	 * Samples through the outermost frame containing {@code method}, on each side:
	 * {value, baseline}.
	 */
	@SuppressWarnings("unchecked")
	private static long[] sides(Object node, String method) {
		Map<String, Object> map = (Map<String, Object>) node;
		if (((String) map.get("name")).contains("." + method)) {
			return new long[] { ((Number) map.get("value")).longValue(), ((Number) map.get("baseline")).longValue() };
		}
		long[] sum = new long[2];
		for (Object child : (List<Object>) map.get("children")) {
			long[] part = sides(child, method);
			sum[0] += part[0];
			sum[1] += part[1];
		}
		return sum;
	}

	/**
	 * The path (frame names below the root) and width of the widest outermost frame
	 * containing {@code method}.
	 */
	@SuppressWarnings("unchecked")
	private static void widest(Object node, String method, List<String> above, List<Object> best) {
		for (Object child : (List<Object>) ((Map<String, Object>) node).get("children")) {
			Map<String, Object> map = (Map<String, Object>) child;
			List<String> path = new ArrayList<>(above);
			path.add((String) map.get("name"));
			long value = ((Number) map.get("value")).longValue();
			if (((String) map.get("name")).contains("." + method)) {
				if (best.isEmpty() || value > (Long) best.get(1)) {
					best.clear();
					best.add(path);
					best.add(value);
				}
			}
			else {
				widest(map, method, path, best);
			}
		}
	}

	private static Map<String, Object> entry(Map<String, Object> list, String name) {
		Map<String, Object> entry = entryOrNull(list, name);
		if (entry == null) {
			throw new AssertionError("no " + name + " in " + list.get("names"));
		}
		return entry;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> entryOrNull(Map<String, Object> list, String name) {
		for (Map<String, Object> entry : (List<Map<String, Object>>) list.get("names")) {
			if (name.equals(entry.get("name"))) {
				return entry;
			}
		}
		return null;
	}

	private static double millis(Map<String, Object> span) {
		return ((Number) span.get("durationMillis")).doubleValue();
	}

	private static long count(Map<String, Object> map, String key) {
		assertThat(map.get(key)).as(key).isInstanceOf(Number.class);
		return ((Number) map.get(key)).longValue();
	}

	private static double number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).doubleValue();
	}

	private static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

}
