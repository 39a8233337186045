package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.reactive.HopsApplication;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.netty.http.HttpResources;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real WebFlux application on Netty, on Boot's defaults (no
 * {@code spring.reactor.context-propagation} of its own: the starter turns Reactor's
 * automatic context propagation on): work that hops to another thread (subscribeOn,
 * publishOn, a timer) is profiled in its request's span, and event-loop work outside any
 * request is counted outside spans. Requests that tracing did not sample follow their
 * hops the same way into their route's graph.
 */
@SpringBootTest(classes = HopsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = {
				// Its sample counts are bounded for 10 ms, not the default 20 ms.
				"spanprofile.interval=10ms", "spring.main.web-application-type=reactive",
				"management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class WebFluxHopsWebTests {

	private static final List<String> HOPS = List.of("subscribe-on", "publish-on", "delay");

	/** CPU each request burns: about 20 samples at 10 ms. */
	private static final long CPU_MILLIS = 200;

	private static final int ROUNDS = 3;

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
	void workAfterEachKindOfHopLandsInItsRequestsSpan() throws Exception {
		// Each route's first request initialises WebFlux's handler inside its span and
		// compiles the hot methods: kept out of the figures below, with any span of
		// these routes from the other tests.
		Set<Object> earlier = new HashSet<>();
		for (String hop : HOPS) {
			assertThat(this.endpoint.get("/" + hop + "?cpuMillis=50", "text/plain").statusCode()).isEqualTo(200);
			this.endpoint.awaitCompleteSpan("http get /" + hop);
			this.endpoint.spans("?limit=1000&name=" + hop).forEach((span) -> earlier.add(span.get("spanId")));
		}
		// Each request's CPU time read from its threads' clocks as they enter and leave
		// it: exactly how much of the hopped work ran in the request's span, whatever
		// the sampling.
		this.profiler.setExactCpuTime(true);
		try {
			hopRounds(earlier);
		}
		finally {
			this.profiler.setExactCpuTime(false);
		}
	}

	private void hopRounds(Set<Object> earlier) throws Exception {
		for (int round = 0; round < ROUNDS; round++) {
			// The three kinds at once, so that their threads' samples could be mixed up
			// if attribution were wrong.
			List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
			for (String hop : HOPS) {
				responses.add(this.endpoint.getAsync("/" + hop + "?cpuMillis=" + CPU_MILLIS));
			}
			for (int i = 0; i < HOPS.size(); i++) {
				HttpResponse<String> response = responses.get(i).get(60, TimeUnit.SECONDS);
				assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
				// The answer is the thread that burnt: never a Netty event loop, so the
				// hop really happened.
				assertThat(response.body()).as(HOPS.get(i))
					.doesNotContain("reactor-http")
					.startsWith(HOPS.get(i).equals("subscribe-on") ? "boundedElastic-" : "parallel-");
			}
		}
		for (String hop : HOPS) {
			double cpuMillis = assertOwnHotMethod(hop, earlier);
			// Each request burnt CPU_MILLIS after its hop: at least 95 % of it must be in
			// its span (without context propagation only the event loop's few
			// milliseconds are), and at most a quarter more (the event loop's part),
			// short of another request's work.
			double burnt = ROUNDS * CPU_MILLIS;
			System.out.printf("%s: %.1f ms CPU in its requests' spans, %d ms burnt after the hops%n", hop, cpuMillis,
					(long) burnt);
			assertThat(cpuMillis).as("%s: CPU time of its requests, %d ms burnt after the hops", hop, (long) burnt)
				.isBetween(0.95 * burnt, 1.25 * burnt);
		}
	}

	@Test
	void unsampledRequestsFollowTheirHopsIntoTheirRoutesGraph() throws Exception {
		this.profiler.collectNow();
		Map<String, long[]> before = new java.util.HashMap<>();
		for (String hop : HOPS) {
			before.put(hop, routeFigures(hop));
		}
		for (int round = 0; round < ROUNDS; round++) {
			for (String hop : HOPS) {
				// A trace context that says "not sampled": Boot's parent-based sampler
				// drops the request's span.
				HttpResponse<String> response = this.endpoint.get("/" + hop + "?cpuMillis=" + CPU_MILLIS, "text/plain",
						"traceparent", String.format("00-%032x-%016x-00", 0xf00d0000L + round, 0xbeef0000L + round));
				assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			}
		}
		for (String hop : HOPS) {
			long[] was = before.get(hop);
			long[] now = await().atMost(Duration.ofSeconds(20)).until(() -> {
				this.profiler.collectNow();
				return routeFigures(hop);
			}, (figures) -> figures[1] - was[1] >= ROUNDS);
			assertThat(now[0] - was[0]).as("%s requests counted unsampled", hop).isEqualTo(ROUNDS);
			assertThat(now[1] - was[1]).as("%s unsampled requests in the graph", hop).isEqualTo(ROUNDS);
			long expected = ROUNDS * CPU_MILLIS / 10;
			long tolerance = Math.round(4 * Math.sqrt(expected));
			assertThat(now[2] - was[2]).as("%s samples in the graph of http get /%s", hotMethod(hop), hop)
				.isBetween(expected - tolerance, expected + tolerance);
			assertThat(now[3] - was[3]).as("other routes' hot methods in the graph of http get /%s", hop)
				.isLessThanOrEqualTo((now[2] - was[2]) / 100);
		}
	}

	/**
	 * A route's unsampled requests counted, those in its graph, and its graph's CPU
	 * samples in its own hot method and in the other routes' and the event loops'.
	 */
	private long[] routeFigures(String hop) throws Exception {
		String name = "http get /" + hop;
		Map<String, Object> list = this.endpoint.json("/actuator/spanprofile/names");
		@SuppressWarnings("unchecked")
		Map<String, Object> entry = ((List<Map<String, Object>>) list.get("names")).stream()
			.filter((candidate) -> name.equals(candidate.get("name")))
			.findFirst()
			.orElse(null);
		if (entry == null) {
			return new long[4];
		}
		String stacks = this.endpoint
			.get("/actuator/spanprofile/names?event=cpu&format=collapsed&name="
					+ java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8), "text/plain")
			.body();
		long others = EndpointClient.samplesWith(stacks, "eventLoopHotMethod");
		for (String other : HOPS) {
			if (!other.equals(hop)) {
				others += EndpointClient.samplesWith(stacks, hotMethod(other));
			}
		}
		return new long[] { ((Number) entry.get("unsampled")).longValue(),
				((Number) entry.get("unsampledProfiled")).longValue(),
				EndpointClient.samplesWith(stacks, hotMethod(hop)), others };
	}

	@Test
	void eventLoopWorkOutsideRequestsIsCountedOutsideSpans() throws Exception {
		// A request first, so that the event loops have run traced work and had its
		// scopes closed on them.
		assertThat(this.endpoint.get("/publish-on?cpuMillis=20", "text/plain").statusCode()).isEqualTo(200);
		this.endpoint.awaitCompleteSpan("http get /publish-on");
		long outsideBefore = outsideSpans();

		EventLoopGroup loops = HttpResources.get().onServer(true);
		List<EventExecutor> executors = new ArrayList<>();
		loops.forEach(executors::add);
		long perLoopMillis = 100;
		CountDownLatch done = new CountDownLatch(executors.size());
		List<String> threads = new CopyOnWriteArrayList<>();
		for (EventExecutor loop : executors) {
			loop.execute(() -> {
				threads.add(HopsApplication.burn(perLoopMillis, HopsApplication::eventLoopHotMethod));
				done.countDown();
			});
		}
		assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
		assertThat(threads).isNotEmpty().allSatisfy((name) -> assertThat(name).startsWith("reactor-http-"));

		// Collected once the dump interval has passed: then no span may hold a sample of
		// the event-loop method.
		long expected = executors.size() * perLoopMillis / 10;
		long tolerance = Math.round(4 * Math.sqrt(expected));
		await().atMost(Duration.ofSeconds(15)).until(() -> {
			this.profiler.collectNow();
			return outsideSpans() - outsideBefore >= expected - tolerance;
		});
		for (Map<String, Object> span : this.endpoint.spans("?limit=100000")) {
			if (((Number) span.get("samples")).longValue() == 0) {
				continue;
			}
			HttpResponse<String> collapsed = this.endpoint.get("/actuator/spanprofile/" + span.get("spanId"),
					"text/plain");
			assertThat(collapsed.statusCode()).as(collapsed.body()).isEqualTo(200);
			assertThat(EndpointClient.samplesWith(collapsed.body(), "eventLoopHotMethod")).as("%s", span).isZero();
		}
	}

	@Test
	void pagesCarryTheirSecurityHeadersOnWebFlux() throws Exception {
		assertThat(this.endpoint.get("/delay?cpuMillis=5", "text/plain").statusCode()).isEqualTo(200);
		String spanId = (String) this.endpoint.awaitCompleteSpan("http get /delay").get("spanId");
		for (String path : List.of("/actuator/spanprofile", "/actuator/spanprofile/" + spanId)) {
			HttpResponse<String> page = this.endpoint.get(path, EndpointClient.BROWSER_ACCEPT);
			assertThat(page.statusCode()).as(path).isEqualTo(200);
			assertThat(page.headers().firstValue("Content-Security-Policy")).as(path)
				.hasValueSatisfying((policy) -> assertThat(policy).contains("default-src 'none'")
					.contains("frame-ancestors 'self'"));
			assertThat(page.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
			assertThat(page.headers().firstValue("Referrer-Policy")).as(path).hasValue("no-referrer");
		}
		HttpResponse<byte[]> pprof = this.endpoint.getBytes("/actuator/spanprofile/" + spanId + "?format=pprof", "*/*");
		assertThat(pprof.statusCode()).isEqualTo(200);
		assertThat(pprof.headers().firstValue("Content-Disposition"))
			.hasValue("attachment; filename=\"spanprofile-" + spanId + ".pb.gz\"");
		// The application's own requests are not the filter's business.
		HttpResponse<String> own = this.endpoint.get("/delay?cpuMillis=1", "text/plain");
		assertThat(own.headers().firstValue("Content-Security-Policy")).isEmpty();
	}

	/**
	 * Asserts that the route's requests hold their own hot method and no other's, and
	 * answers their CPU time added up, as their time breakdowns give it.
	 */
	private double assertOwnHotMethod(String hop, Set<Object> earlier) throws Exception {
		String name = "http get /" + hop;
		List<Map<String, Object>> spans = await().atMost(Duration.ofSeconds(20)).until(() -> {
			this.profiler.collectNow();
			return this.endpoint.spans("?limit=1000&name=" + hop)
				.stream()
				.filter((span) -> name.equals(span.get("name")) && Boolean.TRUE.equals(span.get("complete"))
						&& !earlier.contains(span.get("spanId")))
				.toList();
		}, (found) -> found.size() >= ROUNDS);
		assertThat(spans).hasSize(ROUNDS);
		long own = 0;
		long others = 0;
		double cpuMillis = 0;
		for (Map<String, Object> span : spans) {
			HttpResponse<String> collapsed = this.endpoint
				.get("/actuator/spanprofile/" + span.get("spanId") + "?event=cpu", "text/plain");
			assertThat(collapsed.statusCode()).isEqualTo(200);
			long spanOwn = 0;
			long spanOthers = EndpointClient.samplesWith(collapsed.body(), "eventLoopHotMethod");
			for (String other : HOPS) {
				long samples = EndpointClient.samplesWith(collapsed.body(), hotMethod(other));
				if (other.equals(hop)) {
					spanOwn += samples;
				}
				else {
					spanOthers += samples;
				}
			}
			long hot = spanOwn + spanOthers;
			assertThat(spanOwn)
				.as("%s %s: %d of %d hot samples in its own method", name, span.get("spanId"), spanOwn, hot)
				.isGreaterThanOrEqualTo((long) Math.ceil(0.9 * hot));
			assertThat(spanOthers).as("%s %s: hot samples in other requests' methods", name, span.get("spanId"))
				.isLessThanOrEqualTo(hot / 100);
			own += spanOwn;
			others += spanOthers;
			@SuppressWarnings("unchecked")
			Map<String, Object> breakdown = (Map<String, Object>) this.endpoint
				.json("/actuator/spanprofile/" + span.get("spanId"))
				.get("timeBreakdown");
			assertThat(breakdown).containsEntry("cpuFrom", "thread CPU clocks");
			cpuMillis += ((Number) breakdown.get("cpuMillis")).doubleValue();
		}
		assertThat(others).as("%s: samples in other requests' methods", name).isZero();
		// CPU-time sampling of 3 x 200 ms at 10 ms: about 60 samples; 4 Poisson standard
		// deviations (31) either side.
		// Fewer means the hopped work was lost from the span, more that another request's
		// work landed in it.
		long expected = ROUNDS * CPU_MILLIS / 10;
		long tolerance = Math.round(4 * Math.sqrt(expected));
		assertThat(own).as("%s samples in %s", hotMethod(hop), name)
			.isBetween(expected - tolerance, expected + tolerance);
		return cpuMillis;
	}

	private long outsideSpans() throws Exception {
		@SuppressWarnings("unchecked")
		Map<String, Object> samples = (Map<String, Object>) this.endpoint.json("/actuator/spanprofile?limit=1")
			.get("samples");
		return ((Number) samples.get("outsideSpans")).longValue();
	}

	private static String hotMethod(String hop) {
		return switch (hop) {
			case "subscribe-on" -> "HopsController.subscribeOnHotMethod";
			case "publish-on" -> "HopsController.publishOnHotMethod";
			default -> "HopsController.delayHotMethod";
		};
	}

}
