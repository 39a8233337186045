package dev.spanprofile.compat.mvc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The starter in a real MVC application on the Spring Boot line this module is built
 * with: each request's span holds its own hot method and not the other request's, and
 * the work it hands to an {@code @Async} method on Boot's defaults. Only APIs that every
 * supported line shares are used here (no Boot test slices, no Jackson), so the same
 * source runs on each.
 */
class CompatMvcApplicationTests {

	/**
	 * One span of the list: an object whose values may hold objects one level deep
	 * ({@code samplesByEvent}).
	 */
	private static final Pattern SPAN = Pattern.compile("\\{(?:[^{}]|\\{[^{}]*\\})*\\}");

	private static final Pattern SPAN_ID = Pattern.compile("\"spanId\":\"([0-9a-f]{16})\"");

	/** CPU each request burns; at 10 ms about 30 samples. */
	private static final long CPU_MILLIS = 300;

	private static final int REQUESTS = 3;

	/** Requests that hand their work to an {@code @Async} method (about 120 samples). */
	private static final int HANDOFFS = 4;

	/** A span's CPU time in its breakdown, when read from its threads' CPU clocks. */
	private static final Pattern CLOCK_CPU_MILLIS = Pattern
		.compile("\"timeBreakdown\":\\{[^{}]*?\"cpuMillis\":([0-9.]+),\"cpuFrom\":\"thread CPU clocks\"");

	private static ConfigurableApplicationContext context;

	private static int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@BeforeAll
	static void start() {
		context = SpringApplication.run(CompatMvcApplication.class, "--server.port=0",
				"--management.tracing.sampling.probability=1.0",
				"--management.endpoints.web.exposure.include=health,spanprofile", "--spanprofile.dump-interval=200ms",
				// The sample counts below are bounded for 10 ms, not the default 20 ms.
				"--spanprofile.interval=10ms",
				"--management.endpoint.health.show-details=always",
				// Nothing listens for OTLP here.
				"--management.otlp.metrics.export.enabled=false", "--management.tracing.export.enabled=false",
				"--management.otlp.tracing.export.enabled=false");
		port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void runsOnTheExpectedBootLine() {
		assertThat(SpringBootVersion.getVersion()).startsWith(System.getProperty("compat.boot-line"));
	}

	@Test
	void eachRequestSpanHoldsItsOwnHotMethod() throws Exception {
		// The first request of each endpoint initialises Spring MVC inside its span: kept
		// out of the shares below.
		assertThat(get("/alpha?cpuMillis=1", "text/plain").body()).isEqualTo("alpha");
		assertThat(get("/beta?cpuMillis=1", "text/plain").body()).isEqualTo("beta");
		List<String> warmUp = new ArrayList<>();
		warmUp.addAll(await().atMost(Duration.ofSeconds(20))
			.until(() -> completeSpanIds("http get /alpha"), (found) -> found.size() == 1));
		warmUp.addAll(await().atMost(Duration.ofSeconds(20))
			.until(() -> completeSpanIds("http get /beta"), (found) -> found.size() == 1));
		for (int i = 0; i < REQUESTS; i++) {
			assertThat(get("/alpha?cpuMillis=" + CPU_MILLIS, "text/plain").body()).isEqualTo("alpha");
			assertThat(get("/beta?cpuMillis=" + CPU_MILLIS, "text/plain").body()).isEqualTo("beta");
		}
		assertOwnHotMethod("http get /alpha", "BurnController.alphaHotMethod", "BurnController.betaHotMethod", warmUp);
		assertOwnHotMethod("http get /beta", "BurnController.betaHotMethod", "BurnController.alphaHotMethod", warmUp);
	}

	@Test
	void asyncWorkIsProfiledInItsRequestOnBootsDefaults() throws Exception {
		// No context propagation setting of the application's own (see start()): the
		// starter's default carries the request's span to Boot's task executor. The
		// first request also compiles the hot method; kept out of the figures below.
		assertThat(get("/handoff?cpuMillis=100", "text/plain").body()).startsWith("task-");
		List<String> warmUp = await().atMost(Duration.ofSeconds(20))
			.until(() -> completeSpanIds("http get /handoff"), (found) -> found.size() == 1);
		// Each request's CPU time read from its threads' clocks as they enter and leave
		// it: exactly how much of the @Async work ran in the request's span, whatever
		// the sampling.
		SpanProfiler profiler = context.getBean(SpanProfiler.class);
		profiler.setExactCpuTime(true);
		try {
			for (int i = 0; i < HANDOFFS; i++) {
				// Boot's task executor names its threads task-N: the work left the
				// request's thread.
				assertThat(get("/handoff?cpuMillis=" + CPU_MILLIS, "text/plain").body()).startsWith("task-");
			}
			List<String> ids = await().atMost(Duration.ofSeconds(20)).until(() -> {
				List<String> found = completeSpanIds("http get /handoff");
				found.removeAll(warmUp);
				return found;
			}, (found) -> found.size() >= HANDOFFS);
			assertThat(ids).hasSize(HANDOFFS);
			long hot = 0;
			long foreign = 0;
			double cpuMillis = 0;
			for (String id : ids) {
				String collapsed = get("/actuator/spanprofile/" + id + "?event=cpu", "text/plain").body();
				hot += samplesWith(collapsed, "AsyncBurner.gammaHotMethod");
				foreign += samplesWith(collapsed, "BurnController.");
				String json = get("/actuator/spanprofile/" + id, "application/json").body();
				Matcher cpu = CLOCK_CPU_MILLIS.matcher(json);
				assertThat(cpu.find()).as(json).isTrue();
				cpuMillis += Double.parseDouble(cpu.group(1));
			}
			long burnt = HANDOFFS * CPU_MILLIS;
			System.out.printf("http get /handoff: %.1f ms CPU in its requests' spans of %d ms burnt by @Async, "
					+ "%d samples in the hot method%n", cpuMillis, burnt, hot);
			// At least 95 % of the @Async work is in its requests (without context
			// propagation only the request threads' few milliseconds are), and at most a
			// quarter more (the request threads' own part), short of another request's.
			assertThat(cpuMillis).as("CPU time of the hand-off requests, %d ms burnt by @Async", burnt)
				.isBetween(0.95 * burnt, 1.25 * burnt);
			assertThat(foreign).as("other endpoints' samples in the hand-off requests").isZero();
			// CPU-time sampling of 4 x 300 ms at 10 ms: about 120 samples, 4 Poisson
			// standard deviations (44) either side.
			long expected = burnt / 10;
			long tolerance = Math.round(4 * Math.sqrt(expected));
			assertThat(hot).as("@Async samples in their requests").isBetween(expected - tolerance, expected + tolerance);
		}
		finally {
			profiler.setExactCpuTime(false);
		}
	}

	@Test
	void healthShowsTheProfilerUpAndRunning() throws Exception {
		// On each line the indicator is a bean of that line's health API; the endpoint
		// must find it by type.
		HttpResponse<String> health = get("/actuator/health", "application/json");
		assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
		// Boot 3 writes the status before the details, Boot 4 after them.
		Matcher component = Pattern
			.compile("\"spanprofile\":\\{(\"status\":\"\\w+\",)?\"details\":\\{([^}]*)\\}(,\"status\":\"\\w+\")?\\}")
			.matcher(health.body());
		assertThat(component.find()).as(health.body()).isTrue();
		assertThat(component.group()).contains("\"status\":\"UP\"");
		assertThat(component.group(2)).contains("\"state\":\"running\"").contains("\"engine\":");
	}

	@Test
	void pagesCarryTheirSecurityHeaders() throws Exception {
		// The header comes from a filter that the management-context configuration
		// registers on every line.
		HttpResponse<String> page = get("/actuator/spanprofile", "text/html");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
				(policy) -> assertThat(policy).contains("default-src 'none'").contains("frame-ancestors 'self'"));
		assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
	}

	private void assertOwnHotMethod(String spanName, String own, String other, List<String> warmUp) throws Exception {
		List<String> ids = await().atMost(Duration.ofSeconds(20)).until(() -> {
			List<String> found = completeSpanIds(spanName);
			found.removeAll(warmUp);
			return found;
		}, (found) -> found.size() >= REQUESTS);
		assertThat(ids).hasSize(REQUESTS);
		long ownSamples = 0;
		long otherSamples = 0;
		for (String id : ids) {
			HttpResponse<String> collapsed = get("/actuator/spanprofile/" + id + "?event=cpu", "text/plain");
			assertThat(collapsed.statusCode()).as(collapsed.body()).isEqualTo(200);
			long spanTotal = samplesWith(collapsed.body(), "");
			long spanOwn = samplesWith(collapsed.body(), own);
			long spanOther = samplesWith(collapsed.body(), other);
			// The handler's frame is on every sample of its own code: the hot method and
			// the CPU clock it reads.
			String handler = own.substring(0, own.indexOf("HotMethod"));
			long spanHandler = samplesWith(collapsed.body(), handler);
			System.out.printf("%s %s: %d of %d samples in %s (%d in %s), %d in %s%n", spanName, id, spanHandler,
					spanTotal, handler, spanOwn, own, spanOther, other);
			// Every hot sample of this span is in its own method: one in the other's
			// would be a misattribution.
			assertThat(spanOther).as("%s samples of %s in span %s", other, spanName, id).isZero();
			// The request is its handler but for a few milliseconds of MVC around it: at
			// least 90 % of its samples (as in the core's accuracy tests), which also
			// bounds anything else given to it by mistake.
			assertThat(spanHandler).as("%s samples of %s in span %s:%n%s", handler, spanName, id, collapsed.body())
				.isGreaterThanOrEqualTo((long) Math.ceil(spanTotal * 0.9));
			ownSamples += spanOwn;
			otherSamples += spanOther;
		}
		// CPU-time sampling of 3 x 300 ms at 10 ms: about 90 samples in the hot method
		// (the rest of each request is a few ms of MVC). 4 Poisson standard deviations
		// (4 x sqrt(90) = 38) either side; fewer means samples were lost or given to
		// another span, more means another span's samples landed here.
		long expected = REQUESTS * CPU_MILLIS / 10;
		long tolerance = Math.round(4 * Math.sqrt(expected));
		assertThat(ownSamples).as("%s samples in %s", own, spanName)
			.isBetween(expected - tolerance, expected + tolerance);
		assertThat(otherSamples).isZero();
	}

	private List<String> completeSpanIds(String name) throws Exception {
		HttpResponse<String> list = get("/actuator/spanprofile?limit=1000", "application/json");
		assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
		List<String> ids = new ArrayList<>();
		Matcher span = SPAN.matcher(list.body());
		while (span.find()) {
			String json = span.group();
			if (json.contains("\"name\":\"" + name + "\"") && json.contains("\"complete\":true")) {
				Matcher id = SPAN_ID.matcher(json);
				assertThat(id.find()).as(json).isTrue();
				ids.add(id.group(1));
			}
		}
		return ids;
	}

	private HttpResponse<String> get(String path, String accept) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("Accept", accept)
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static long samplesWith(String collapsed, String frame) {
		long count = 0;
		for (String line : collapsed.split("\n")) {
			if (!line.isBlank() && line.contains(frame)) {
				count += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return count;
	}

}
