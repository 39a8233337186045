package dev.spanprofile.actuate;

import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPInputStream;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.render.pprof.proto.PprofProtos.Label;
import dev.spanprofile.render.pprof.proto.PprofProtos.Profile;
import dev.spanprofile.render.pprof.proto.PprofProtos.Sample;
import dev.spanprofile.view.SpanNames;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint's other views on a real server with real samples: format negotiation and
 * override, a trace's merged graph, a running span's growing profile, pprof, and the HTML
 * pages as served.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = {
				// Its sample counts are bounded for 10 ms, not the default 20 ms.
				"spanprofile.interval=10ms", "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class SpanProfileViewsWebTests {

	private static final String HOT = "BurnApplication$BurnController.recognisablyHotMethod";

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	private EndpointClient client;

	@BeforeEach
	void profilerRuns() {
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
		this.client = new EndpointClient(this.port, this.profiler);
	}

	@Test
	void formatParameterOverridesAcceptAndUnknownFormatsAreRejected() throws Exception {
		Set<String> known = this.client.spanIds();
		this.client.get("/burn?cpuMillis=150", "text/plain");
		String spanId = (String) this.client.awaitNewCompleteSpan("http get /burn", known).get("spanId");
		String path = "/actuator/spanprofile/" + spanId;

		assertThat(this.client.get(path, EndpointClient.BROWSER_ACCEPT).headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
		assertThat(this.client.get(path, "*/*").headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		assertThat(this.client.get(path + "?format=collapsed", EndpointClient.BROWSER_ACCEPT).body()).contains(HOT)
			.doesNotContain("<html");
		assertThat(this.client.get(path + "?format=json", EndpointClient.BROWSER_ACCEPT).body()).startsWith("{")
			.contains("\"flameGraph\"");
		assertThat(this.client.get(path + "?format=HTML", "application/json").body()).startsWith("<!DOCTYPE html>");

		HttpResponse<String> unknown = this.client.get(path + "?format=svg", EndpointClient.BROWSER_ACCEPT);
		assertThat(unknown.statusCode()).isEqualTo(400);
		assertThat(unknown.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		assertThat(unknown.body()).contains("\"message\"").contains("svg").contains("json, collapsed, html, pprof");

		assertThat(this.client.get("/actuator/spanprofile", EndpointClient.BROWSER_ACCEPT).body())
			.startsWith("<!DOCTYPE html>");
		assertThat(this.client.get("/actuator/spanprofile?format=html", "application/json").body())
			.startsWith("<!DOCTYPE html>");
		assertThat(this.client.get("/actuator/spanprofile", "application/json").body()).startsWith("{");
		HttpResponse<String> listCollapsed = this.client.get("/actuator/spanprofile?format=collapsed", "*/*");
		assertThat(listCollapsed.statusCode()).isEqualTo(400);
		assertThat(listCollapsed.body()).contains("json, html");
		HttpResponse<String> listUnknown = this.client.get("/actuator/spanprofile?format=%3Cb%3E", "*/*");
		assertThat(listUnknown.statusCode()).isEqualTo(400);
		assertThat(listUnknown.body()).contains("valid formats");
	}

	@Test
	void pagesAreSelfContainedAndSentWithAStrictContentSecurityPolicy() throws Exception {
		Set<String> known = this.client.spanIds();
		this.client.get("/checkout?cpuMillis=200", "text/plain");
		String spanId = (String) this.client.awaitNewCompleteSpan("http get /checkout", known).get("spanId");
		for (String path : List.of("/actuator/spanprofile", "/actuator/spanprofile/" + spanId)) {
			HttpResponse<String> page = this.client.get(path, EndpointClient.BROWSER_ACCEPT);
			assertThat(page.statusCode()).isEqualTo(200);
			String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
			assertThat(policy).contains("default-src 'none'")
				.contains("script-src 'sha256-")
				.contains("frame-ancestors 'self'")
				.doesNotContain("unsafe-inline")
				.doesNotContain("http");
			assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
			String html = page.body();
			assertThat(html).contains("<meta http-equiv=\"Content-Security-Policy\"");
			assertThat(html).doesNotContainPattern("(?i)(https?:)?//[a-z0-9.-]+\\.[a-z]{2,}");
			assertThat(html).doesNotContainPattern("(?i)<(script|link|img|iframe)[^>]*\\s(src|href)\\s*=");
			// The policy's hashes cover <script> and <style> elements only: no inline
			// handler or style attribute.
			String markup = html.replaceAll("(?s)<script[^>]*>.*?</script>", "")
				.replaceAll("(?s)<style>.*?</style>", "");
			assertThat(markup).doesNotContainPattern("(?i)\\son[a-z]+\\s*=").doesNotContainPattern("(?i)\\sstyle\\s*=");
		}
		String page = this.client.get("/actuator/spanprofile/" + spanId, EndpointClient.BROWSER_ACCEPT).body();
		assertThat(page).contains("CheckoutController$FraudRules.evaluateRules");
	}

	@Test
	@SuppressWarnings("unchecked")
	void traceViewMergesTheLocalSpansOfOneTrace() throws Exception {
		Set<String> known = this.client.spanIds();
		assertThat(this.client.get("/relay?cpuMillis=200", "text/plain").body()).isEqualTo("relayed burnt");
		Map<String, Object> relay = this.client.awaitNewCompleteSpan("http get /relay", known);
		String traceId = (String) relay.get("traceId");
		Map<String, Object> burn = this.client.awaitSpan("http get /burn",
				(span) -> traceId.equals(span.get("traceId")) && Boolean.TRUE.equals(span.get("complete")));
		assertThat(burn.get("spanId")).isNotEqualTo(relay.get("spanId"));

		HttpResponse<String> response = this.client.get("/actuator/spanprofile/" + traceId, "application/json");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		Map<String, Object> body = this.client.readJson(response.body());
		assertThat(body.get("traceId")).isEqualTo(traceId);
		List<Map<String, Object>> spans = (List<Map<String, Object>>) body.get("spans");
		assertThat(spans).extracting((span) -> span.get("spanId"))
			.containsExactlyInAnyOrder(relay.get("spanId"), burn.get("spanId"));
		Map<String, Object> root = (Map<String, Object>) body.get("flameGraph");
		List<Map<String, Object>> children = (List<Map<String, Object>>) root.get("children");
		assertThat(children).extracting((child) -> child.get("name"))
			.containsExactlyInAnyOrder("http get /relay", "http get /burn");
		long relaySamples = applicationCpuSamples(relay);
		long burnSamples = applicationCpuSamples(burn);
		assertThat(relaySamples).isPositive();
		assertThat(burnSamples).isPositive();
		assertThat(((Number) root.get("value")).longValue()).isEqualTo(relaySamples + burnSamples);
		for (Map<String, Object> child : children) {
			assertThat(child.get("kind")).isEqualTo("span");
			long expected = child.get("name").equals("http get /relay") ? relaySamples : burnSamples;
			assertThat(((Number) child.get("value")).longValue()).isEqualTo(expected);
		}

		String collapsed = this.client.get("/actuator/spanprofile/" + traceId, "text/plain").body();
		assertThat(collapsed).contains("http get /relay;").contains("http get /burn;");
		assertThat(collapsed.lines()
			.filter((line) -> line.startsWith("http get /burn;"))
			.anyMatch((line) -> line.contains(HOT))).isTrue();
		assertThat(collapsed.lines()
			.filter((line) -> line.startsWith("http get /relay;"))
			.anyMatch((line) -> line.contains("relayPreparation"))).isTrue();

		String html = this.client.get("/actuator/spanprofile/" + traceId, EndpointClient.BROWSER_ACCEPT).body();
		assertThat(html).contains("Spans of this trace")
			.contains("href=\"" + relay.get("spanId") + "\"")
			.contains("href=\"" + burn.get("spanId") + "\"");
		assertThat(this.client.get("/actuator/spanprofile/0123456789abcdef0123456789abcdef", "*/*").statusCode())
			.isEqualTo(404);
	}

	/**
	 * The CPU samples of a listed span's own graph: the list counts every sample, the
	 * graphs (a trace's too) leave out those that caught the profiler's own code.
	 */
	private long applicationCpuSamples(Map<String, Object> listed) throws Exception {
		Map<String, Object> profile = this.client.readJson(
				this.client.get("/actuator/spanprofile/" + listed.get("spanId") + "?event=cpu", "application/json")
					.body());
		long graph = ((Number) profile.get("samples")).longValue();
		long profilerWork = (profile.get("profilerSamples") != null)
				? ((Number) profile.get("profilerSamples")).longValue() : 0;
		assertThat(graph + profilerWork).as("%s", profile).isEqualTo(((Number) listed.get("samples")).longValue());
		return graph;
	}

	@Test
	void aRunningSpansProfileGrowsWhileItRuns() throws Exception {
		CompletableFuture<HttpResponse<String>> running = this.client.getAsync("/burn?cpuMillis=4000");
		try {
			// The first samples may still be in Spring's dispatch; wait until the
			// controller shows.
			Map<String, Object> first = this.client.awaitSpan(SpanNames.UNSPECIFIED,
					(span) -> Boolean.TRUE.equals(span.get("inFlight"))
							&& ((Number) span.get("samples")).longValue() > 0
							&& String.valueOf(span.get("displayName")).contains("BurnController.burn"));
			String spanId = (String) first.get("spanId");
			assertThat((String) first.get("displayName")).startsWith("running: ");
			long before = samples("/actuator/spanprofile/" + spanId);
			Thread.sleep(800);
			this.profiler.collectNow();
			Map<String, Object> later = this.client
				.readJson(this.client.get("/actuator/spanprofile/" + spanId, "application/json").body());
			@SuppressWarnings("unchecked")
			Map<String, Object> span = (Map<String, Object>) later.get("span");
			assertThat(span.get("inFlight")).as("still running").isEqualTo(true);
			assertThat(((Number) later.get("samples")).longValue()).isGreaterThan(before);
			String html = this.client.get("/actuator/spanprofile/" + spanId, EndpointClient.BROWSER_ACCEPT).body();
			assertThat(html).contains("in flight").contains("id=\"follow\"").contains("running: ");
		}
		finally {
			assertThat(running.get().body()).isEqualTo("burnt");
		}
	}

	@Test
	void aSpanShorterThanTheIntervalSaysSoAndPointsToItsRequest() throws Exception {
		Set<String> known = this.client.spanIds();
		Map<String, Object> span = shortUnsampledBurn(known);
		String spanId = (String) span.get("spanId");
		Map<String, Object> body = this.client
			.readJson(this.client.get("/actuator/spanprofile/" + spanId, "application/json").body());
		@SuppressWarnings("unchecked")
		Map<String, Object> empty = (Map<String, Object>) body.get("emptyProfile");
		assertThat(empty).isNotNull();
		assertThat((String) empty.get("reason")).contains("shorter than the 10.0 ms sampling interval");
		assertThat(empty.get("localRootSpanId")).isEqualTo(spanId);
		String html = this.client.get("/actuator/spanprofile/" + spanId, EndpointClient.BROWSER_ACCEPT).body();
		assertThat(html).contains("class=\"note\"").contains("shorter than the 10.0 ms sampling interval");
	}

	/**
	 * A new request span shorter than the interval and without samples. Requests go on
	 * until one is: on a loaded machine (CI's two cores shared with the build) a request
	 * doing nothing took 10-15 ms ten times in a row.
	 */
	private Map<String, Object> shortUnsampledBurn(Set<String> known) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (System.nanoTime() < deadline) {
			for (int i = 0; i < 10; i++) {
				this.client.get("/burn?cpuMillis=0", "text/plain");
			}
			this.profiler.collectNow();
			for (Map<String, Object> candidate : this.client.spans("?name=http+get+/burn&limit=100000")) {
				if (Boolean.TRUE.equals(candidate.get("complete")) && !known.contains(candidate.get("spanId"))
						&& ((Number) candidate.get("samples")).longValue() == 0
						&& ((Number) candidate.get("durationMillis")).doubleValue() < 10) {
					return candidate;
				}
			}
		}
		throw new AssertionError("No request to /burn?cpuMillis=0 took less than 10 ms without a sample in 60 s");
	}

	@Test
	void pprofParsesBackWithSpanLabels() throws Exception {
		Set<String> known = this.client.spanIds();
		this.client.get("/burn?cpuMillis=300", "text/plain");
		Map<String, Object> span = this.client.awaitNewCompleteSpan("http get /burn", known);
		String spanId = (String) span.get("spanId");
		HttpResponse<byte[]> response = this.client.getBytes("/actuator/spanprofile/" + spanId + "?format=pprof",
				"*/*");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Disposition"))
			.hasValue("attachment; filename=\"spanprofile-" + spanId + ".pb.gz\"");
		Profile profile;
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
			profile = Profile.parseFrom(in);
		}
		List<String> strings = profile.getStringTableList();
		assertThat(strings.get(0)).isEmpty();
		assertThat(strings.get((int) profile.getSampleType(0).getType())).isEqualTo("samples");
		assertThat(profile.getPeriod()).isEqualTo(10_000_000L);
		long samples = 0;
		long hot = 0;
		Set<Long> locationIds = new HashSet<>();
		profile.getLocationList().forEach((location) -> locationIds.add(location.getId()));
		for (Sample sample : profile.getSampleList()) {
			samples += sample.getValue(0);
			assertThat(sample.getValue(1)).isEqualTo(sample.getValue(0) * 10_000_000L);
			assertThat(locationIds).containsAll(sample.getLocationIdList());
			Map<String, String> labels = new java.util.HashMap<>();
			for (Label label : sample.getLabelList()) {
				labels.put(strings.get((int) label.getKey()), strings.get((int) label.getStr()));
			}
			assertThat(labels).containsEntry("span_id", spanId)
				.containsEntry("trace_id", (String) span.get("traceId"))
				.containsEntry("span_name", "http get /burn");
			long leafFunction = profile.getLocationList()
				.stream()
				.filter((location) -> location.getId() == sample.getLocationId(0))
				.findFirst()
				.orElseThrow()
				.getLine(0)
				.getFunctionId();
			String leaf = strings.get((int) profile.getFunctionList()
				.stream()
				.filter((function) -> function.getId() == leafFunction)
				.findFirst()
				.orElseThrow()
				.getName());
			if (leaf.endsWith(HOT)) {
				hot += sample.getValue(0);
			}
		}
		assertThat(samples).isEqualTo(((Number) span.get("samples")).longValue());
		assertThat(hot).as("samples ending in the hot method, of %d", samples).isGreaterThan(samples / 2);
	}

	private long samples(String path) throws Exception {
		return ((Number) this.client.readJson(this.client.get(path, "application/json").body()).get("samples"))
			.longValue();
	}

}
