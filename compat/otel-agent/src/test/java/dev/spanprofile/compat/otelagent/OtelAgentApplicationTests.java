package dev.spanprofile.compat.otelagent;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's fat jar in a JVM of its own under the real OpenTelemetry Java agent,
 * with spanprofile's extension, as an agent user runs it: the agent is the only tracer,
 * its instrumentation makes every span current, and each request's span still holds its
 * own code and not the other requests', including the work it hands to an {@code @Async}
 * method on another thread and the work of a {@code Mono} it returns on a Reactor
 * scheduler.
 */
class OtelAgentApplicationTests {

	/** CPU each request burns; at 10 ms about 30 samples. */
	private static final long CPU_MILLIS = 300;

	private static final int REQUESTS = 3;

	private static final String ALPHA = "BurnController.alphaHotMethod";

	private static final String BETA = "BurnController.betaHotMethod";

	private static final String GAMMA = "AsyncBurner.gammaHotMethod";

	private static final String DELTA = "ReactiveBurner.deltaHotMethod";

	private static Process application;

	private static Path log;

	private static int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@BeforeAll
	static void start() throws Exception {
		port = freePort();
		log = Path.of("target", "otel-agent-application.log");
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-javaagent:" + System.getProperty("compat.agent-jar"),
				"-Dotel.javaagent.extensions=" + System.getProperty("compat.extension-jar"),
				// Nothing listens for OTLP here.
				"-Dotel.traces.exporter=none", "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none",
				// As every test JVM of this build: C1 only (see the parent pom's
				// test.jvm.options).
				"-XX:TieredStopAtLevel=1", "-jar", System.getProperty("compat.application-jar"),
				"--server.port=" + port, "--management.endpoints.web.exposure.include=health,spanprofile",
				"--spanprofile.dump-interval=200ms",
				// The sample counts below are bounded for 10 ms, not the default 20 ms.
				"--spanprofile.interval=10ms");
		application = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		HttpClient client = HttpClient.newHttpClient();
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
			assertThat(application.isAlive()).as("the application exited:%n%s", logText()).isTrue();
			try {
				return client
					.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health")).build(),
							HttpResponse.BodyHandlers.ofString())
					.statusCode() == 200;
			}
			catch (IOException ex) {
				return false;
			}
		});
	}

	@AfterAll
	static void stop() throws InterruptedException {
		if (application != null) {
			application.destroy();
			if (!application.waitFor(30, TimeUnit.SECONDS)) {
				application.destroyForcibly();
			}
		}
	}

	@Test
	void theAgentIsTheOnlyTracerAndTheExtensionReportsToTheApplication() throws IOException {
		try (JarFile jar = new JarFile(System.getProperty("compat.application-jar"))) {
			List<String> libraries = Collections.list(jar.entries())
				.stream()
				.map(JarEntry::getName)
				.filter((name) -> name.startsWith("BOOT-INF/lib/"))
				.toList();
			assertThat(libraries).anyMatch((name) -> name.contains("spanprofile-otel-agent-bridge"))
				.noneMatch((name) -> name.contains("micrometer-tracing"))
				.noneMatch((name) -> name.contains("spring-boot-micrometer-tracing"))
				.noneMatch((name) -> name.contains("spanprofile-otel-agent-extension"));
		}
		String output = logText();
		assertThat(output).contains("profiling the spans of the OpenTelemetry Java agent")
			.doesNotContain("ClassCastException")
			.doesNotContain("LinkageError")
			.doesNotContain("otel.javaagent.extensions=")
			.doesNotContain("no span will be profiled")
			.doesNotContain("will not be profiled");
	}

	@Test
	void eachRequestSpanHoldsItsOwnCodeAlsoAcrossAsyncAndReactorHandOffs() throws Exception {
		// The first request of each endpoint initialises Spring MVC inside its span: kept
		// out of the shares below.
		List<String> warmUp = new ArrayList<>();
		for (String endpoint : new String[] { "alpha", "beta", "handoff", "reactive" }) {
			get("/" + endpoint + "?cpuMillis=1");
			warmUp.addAll(await().atMost(Duration.ofSeconds(20))
				.until(() -> completeSpanIds("GET /" + endpoint), (found) -> found.size() == 1));
		}
		for (int i = 0; i < REQUESTS; i++) {
			assertThat(get("/alpha?cpuMillis=" + CPU_MILLIS)).isEqualTo("alpha");
			assertThat(get("/beta?cpuMillis=" + CPU_MILLIS)).isEqualTo("beta");
			// Spring Boot's task executor names its threads task-N: the work ran on
			// another thread than the request.
			assertThat(get("/handoff?cpuMillis=" + CPU_MILLIS)).startsWith("task-");
			// The Mono's work runs on Reactor's parallel scheduler, after the request
			// thread has returned.
			assertThat(get("/reactive?cpuMillis=" + CPU_MILLIS)).startsWith("parallel-");
		}
		// The test's own calls to the actuator are dropped with their spans, as under
		// Boot's tracing.
		List<String> actuatorSpans = JsonPath.read(get("/actuator/spanprofile?limit=1000"),
				"$.spans[?(@.name =~ /.*actuator.*/)].name");
		assertThat(actuatorSpans).isEmpty();
		assertOwnCode("GET /alpha", "BurnController.alpha", ALPHA, warmUp, BETA, GAMMA, DELTA);
		assertOwnCode("GET /beta", "BurnController.beta", BETA, warmUp, ALPHA, GAMMA, DELTA);
		assertOwnCode("GET /handoff", "AsyncBurner.gamma", GAMMA, warmUp, ALPHA, BETA, DELTA);
		assertOwnCode("GET /reactive", "ReactiveBurner.delta", DELTA, warmUp, ALPHA, BETA, GAMMA);
	}

	/**
	 * Every request span of {@code spanName} has at least 90 % of its samples in its own
	 * code (the handler, or the async method or Reactor callable it handed its work to)
	 * and at most 1 % in another request's hot method, as in the core's accuracy tests;
	 * together they hold the CPU they burnt in their hot method, within 4 Poisson
	 * standard deviations: fewer means samples were lost (a hand-off the agent's hook did
	 * not report), more that another span's landed here.
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
			// The CPU graph: a request that waits for its hand-off more than it computes
			// opens on its waits.
			String collapsed = get("/actuator/spanprofile/" + id + "?event=cpu");
			long total = samplesWith(collapsed, "");
			long own = samplesWith(collapsed, ownCode);
			long hot = samplesWith(collapsed, hotMethod);
			long wrong = 0;
			for (String other : foreign) {
				wrong += samplesWith(collapsed, other);
			}
			System.out.printf("otel agent %s %s: %d of %d samples in %s (%d in %s), %d foreign%n", spanName, id, own,
					total, ownCode, hot, hotMethod, wrong);
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
		List<String> ids = JsonPath.read(list, "$.spans[?(@.name == '" + name + "' && @.complete == true)].spanId");
		return new ArrayList<>(ids);
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

	private static String logText() throws IOException {
		return Files.exists(log) ? Files.readString(log) : "";
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
