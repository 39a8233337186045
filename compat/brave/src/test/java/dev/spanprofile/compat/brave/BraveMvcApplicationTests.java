package dev.spanprofile.compat.brave;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import brave.Tracing;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Brave starter in a real MVC application traced by Brave: each request's span holds
 * its own code and not the other requests', including the work it hands to an
 * {@code @Async} method on another thread.
 */
class BraveMvcApplicationTests {

	/**
	 * One span of the list: an object whose values may hold objects one level deep
	 * ({@code samplesByEvent}).
	 */
	private static final Pattern SPAN = Pattern.compile("\\{(?:[^{}]|\\{[^{}]*\\})*\\}");

	private static final Pattern SPAN_ID = Pattern.compile("\"spanId\":\"([0-9a-f]{16})\"");

	/** CPU each request burns; at 10 ms about 30 samples. */
	private static final long CPU_MILLIS = 300;

	private static final int REQUESTS = 3;

	private static final String ALPHA = "BurnController.alphaHotMethod";

	private static final String BETA = "BurnController.betaHotMethod";

	private static final String GAMMA = "AsyncBurner.gammaHotMethod";

	private static ConfigurableApplicationContext context;

	private static int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@BeforeAll
	static void start() {
		context = SpringApplication.run(BraveMvcApplication.class, "--server.port=0",
				"--management.tracing.sampling.probability=1.0",
				// No spring.task.execution.propagate-context: the starter turns it on.
				"--management.endpoints.web.exposure.include=spanprofile", "--spanprofile.dump-interval=200ms",
				// The sample counts below are bounded for 10 ms, not the default 20 ms.
				"--spanprofile.interval=10ms",
				// Nothing listens for Zipkin here.
				"--management.tracing.export.zipkin.enabled=false", "--management.tracing.export.enabled=false");
		port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void braveIsTheTracer() {
		assertThat(context.getBeansOfType(Tracing.class)).hasSize(1);
		assertThat(context.getBeanNamesForType(io.opentelemetry.sdk.trace.SdkTracerProvider.class)).isEmpty();
	}

	@Test
	void eachRequestSpanHoldsItsOwnCodeAlsoAcrossAnAsyncHandOff() throws Exception {
		// The first request of each endpoint initialises Spring MVC inside its span: kept
		// out of the shares below.
		List<String> warmUp = new ArrayList<>();
		for (String endpoint : new String[] { "alpha", "beta", "handoff" }) {
			get("/" + endpoint + "?cpuMillis=1");
			warmUp.addAll(await().atMost(Duration.ofSeconds(20))
				.until(() -> completeSpanIds("http get /" + endpoint), (found) -> found.size() == 1));
		}
		for (int i = 0; i < REQUESTS; i++) {
			assertThat(get("/alpha?cpuMillis=" + CPU_MILLIS)).isEqualTo("alpha");
			assertThat(get("/beta?cpuMillis=" + CPU_MILLIS)).isEqualTo("beta");
			// Spring Boot's task executor names its threads task-N: the work ran on
			// another thread than the request.
			assertThat(get("/handoff?cpuMillis=" + CPU_MILLIS)).startsWith("task-");
		}
		assertOwnCode("http get /alpha", "BurnController.alpha", ALPHA, warmUp, BETA, GAMMA);
		assertOwnCode("http get /beta", "BurnController.beta", BETA, warmUp, ALPHA, GAMMA);
		assertOwnCode("http get /handoff", "AsyncBurner.gamma", GAMMA, warmUp, ALPHA, BETA);
	}

	/**
	 * Every request span of {@code spanName} has at least 90 % of its samples in its own
	 * code (the handler, or the async method it handed its work to) and at most 1 % in
	 * another request's hot method, as in the core's accuracy tests; together they hold
	 * the CPU they burnt in their hot method, within 4 Poisson standard deviations.
	 */
	private void assertOwnCode(String spanName, String ownCode, String hotMethod, List<String> warmUp,
			String... foreign) throws Exception {
		List<String> ids = await().atMost(Duration.ofSeconds(20)).until(() -> {
			List<String> found = completeSpanIds(spanName);
			found.removeAll(warmUp);
			return found;
		}, (found) -> found.size() >= REQUESTS);
		assertThat(ids).hasSize(REQUESTS);
		long hotSamples = 0;
		for (String id : ids) {
			String collapsed = get("/actuator/spanprofile/" + id + "?event=cpu");
			long total = samplesWith(collapsed, "");
			long own = samplesWith(collapsed, ownCode);
			long hot = samplesWith(collapsed, hotMethod);
			long wrong = 0;
			for (String other : foreign) {
				wrong += samplesWith(collapsed, other);
			}
			System.out.printf("brave %s %s: %d of %d samples in %s (%d in %s), %d foreign%n", spanName, id, own, total,
					ownCode, hot, hotMethod, wrong);
			assertThat(own).as("%s samples of %s in span %s:%n%s", ownCode, spanName, id, collapsed)
				.isGreaterThanOrEqualTo((long) Math.ceil(total * 0.9));
			assertThat(wrong).as("foreign samples in %s span %s:%n%s", spanName, id, collapsed)
				.isLessThanOrEqualTo((long) Math.floor(total * 0.01));
			hotSamples += hot;
		}
		long expected = REQUESTS * CPU_MILLIS / 10;
		long tolerance = Math.round(4 * Math.sqrt(expected));
		assertThat(hotSamples).as("%s samples in %s", hotMethod, spanName)
			.isBetween(expected - tolerance, expected + tolerance);
	}

	private List<String> completeSpanIds(String name) throws Exception {
		String list = get("/actuator/spanprofile?limit=1000");
		List<String> ids = new ArrayList<>();
		Matcher span = SPAN.matcher(list);
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

	private String get(String path) throws Exception {
		String accept = path.startsWith("/actuator/spanprofile?") ? "application/json" : "text/plain";
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("Accept", accept)
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
		return response.body();
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
