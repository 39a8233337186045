package dev.spanprofile.autoconfigure.startup;

import java.net.URI;
import java.time.Duration;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.startup.StartupRecording;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Real starts of a real application with two known slow beans: the startup page gives
 * each its own time and samples, bounded on both sides; an application's own
 * {@link BufferingApplicationStartup} keeps its numbers; off is off.
 */
class StartupProfilingTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String[] PROPERTIES = { "--server.port=0",
			"--management.endpoints.web.exposure.include=spanprofile,startup", "--spanprofile.interval=10ms",
			"--management.otlp.metrics.export.enabled=false" };

	@Test
	void theSlowBeansOwnTimeAndSamplesAreOnTheStartupPage() throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplication(SlowStartApplication.class)
			.run(PROPERTIES)) {
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			assertThat(profiler.startup()).isNotNull();
			assertThat(profiler.state().isRunning()).isTrue();
			profiler.collectNow();
			Map<String, Object> page = getJson(context, "/actuator/spanprofile/startup?format=json");
			assertThat(page.get("finished")).isEqualTo(true);
			Map<String, Object> burning = step(page, "burningBean");
			Map<String, Object> sleepy = step(page, "sleepyBean");
			// The burn is 300 ms of the thread's CPU; the clock may run longer on a busy
			// machine, the samples stand for about the CPU.
			assertThat(number(burning, "ownMillis")).isBetween(290.0, 2000.0);
			assertThat(number(burning, "cpuMillis")).isBetween(150.0, 600.0);
			assertThat(number(sleepy, "ownMillis")).isBetween(295.0, 1000.0);
			assertThat(number(sleepy, "cpuMillis")).isLessThan(100.0);
			if (sleepy.get("waitMillis") != null) {
				assertThat(number(sleepy, "waitMillis")).isBetween(250.0, 400.0);
			}
			String graph = getText(context, "/actuator/spanprofile/" + burning.get("graph") + "?format=collapsed");
			long hot = samplesWith(graph, "recognisablyHotStartup");
			assertThat(hot * 10.0).as("CPU samples in the burning method, in ms").isBetween(150.0, 600.0);
			assertThat(samplesWith(graph, "recognisablySleepyStartup")).isZero();
			// The parent's graph has its own samples only: the bean's burn is not in it.
			Map<String, Object> root = ((List<Map<String, Object>>) page.get("timeline")).stream()
				.filter((step) -> step.get("parentId") == null)
				.findFirst()
				.orElseThrow();
			Map<String, Object> breakdown = (Map<String, Object>) page.get("breakdown");
			assertThat(number(root, "durationMillis")).isEqualTo(number(breakdown, "durationMillis"), within(0.01));
			assertThat(number(breakdown, "cpuMillis")).isGreaterThanOrEqualTo(number(burning, "cpuMillis"));
			String html = getText(context, "/actuator/spanprofile/startup?format=html");
			assertThat(html).contains("burningBean").contains("sleepyBean");
			assertThat(getText(context, "/actuator/spanprofile/startup/timeline?format=html")).contains("<svg");
		}
	}

	@Test
	void theStartsOwnTimesAddUpToTheWholeStart() throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplication(SlowStartApplication.class)
			.run(PROPERTIES)) {
			StartupRecording recording = context.getBean(SpanProfiler.class).startup();
			long now = dev.spanprofile.tracking.MonotonicEpoch.nowEpochNanos();
			long mainThread = recording.root().threadId();
			long ownOnMain = recording.ownNanos(now)
				.entrySet()
				.stream()
				.filter((entry) -> entry.getKey().threadId() == mainThread)
				.mapToLong(Map.Entry::getValue)
				.sum();
			assertThat(ownOnMain).isEqualTo(recording.root().durationNanos(now));
		}
	}

	@Test
	void theFirstRequestOfEachNameIsKeptAndLinked() throws Exception {
		String[] traced = { PROPERTIES[0], PROPERTIES[1], PROPERTIES[2], PROPERTIES[3],
				"--management.tracing.sampling.probability=1.0", "--spanprofile.max-spans=1" };
		try (ConfigurableApplicationContext context = new SpringApplication(SlowStartApplication.class).run(traced)) {
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			for (int i = 0; i < 5; i++) {
				assertThat(get(context, "/hello").statusCode()).isEqualTo(200);
			}
			// A request is handed on once its profile is complete: waits arrive a flush
			// later.
			Awaitility.await()
				.atMost(Duration.ofSeconds(15))
				.until(() -> !profiler.startup().firstRequests().all().isEmpty());
			List<Map<String, Object>> first = (List<Map<String, Object>>) getJson(context,
					"/actuator/spanprofile/startup/first-requests?format=json")
				.get("requests");
			assertThat(first).hasSize(1);
			Map<String, Object> hello = first.get(0);
			assertThat((String) hello.get("name")).containsIgnoringCase("/hello");
			assertThat(number(hello, "afterReadyMillis")).isGreaterThanOrEqualTo(0.0);
			assertThat(((Number) hello.get("requestsOfName")).longValue()).isEqualTo(5);
			// One span kept by the store (max-spans=1): the first request is gone from
			// it,
			// and its graph is still served.
			assertThat(profiler.store().find((String) hello.get("spanId"))).isNull();
			assertThat(getText(context, "/actuator/spanprofile/" + hello.get("graph") + "?format=collapsed"))
				.isNotNull();
			// Its own page says it is the first after the start, and that this keeps it.
			Map<String, Object> span = (Map<String, Object>) getJson(context,
					"/actuator/spanprofile/" + hello.get("graph") + "?format=json")
				.get("span");
			assertThat(span).containsEntry("firstAfterStart", true).containsEntry("retainedAs", "first-request");
			assertThat(getText(context, "/actuator/spanprofile/" + hello.get("graph") + "?format=html"))
				.contains("first request")
				.contains("startup/first-requests?format=html");
			assertThat(getText(context, "/actuator/spanprofile/startup?format=html")).contains("first requests (1)");
		}
	}

	@Test
	void anApplicationsBufferingStartupKeepsItsNumbers() throws Exception {
		SpringApplication application = new SpringApplication(SlowStartApplication.class);
		BufferingApplicationStartup buffering = new BufferingApplicationStartup(10_000);
		application.setApplicationStartup(buffering);
		try (ConfigurableApplicationContext context = application.run(PROPERTIES)) {
			Map<String, Object> boot = getJson(context, "/actuator/startup");
			List<Map<String, Object>> events = (List<Map<String, Object>>) ((Map<String, Object>) boot.get("timeline"))
				.get("events");
			Map<String, Object> burning = events.stream()
				.filter((event) -> ((Map<String, Object>) event.get("startupStep")).toString().contains("burningBean"))
				.findFirst()
				.orElseThrow();
			double bootMillis = Duration.parse((String) burning.get("duration")).toNanos() / 1e6;
			Map<String, Object> ours = step(getJson(context, "/actuator/spanprofile/startup?format=json"),
					"burningBean");
			assertThat(bootMillis).isGreaterThan(290.0);
			assertThat(number(ours, "durationMillis")).isCloseTo(bootMillis, within(2.0));
		}
	}

	@Test
	void offMeansTheEngineStartsWithTheContextAndNoStartIsRecorded() throws Exception {
		String[] off = { PROPERTIES[0], PROPERTIES[1], PROPERTIES[3], "--spanprofile.startup.enabled=false" };
		try (ConfigurableApplicationContext context = new SpringApplication(SlowStartApplication.class).run(off)) {
			SpanProfiler profiler = context.getBean(SpanProfiler.class);
			assertThat(profiler.startup()).isNull();
			assertThat(profiler.state().isRunning()).isTrue();
			HttpResponse<String> response = get(context, "/actuator/spanprofile/startup?format=json");
			assertThat(response.statusCode()).isEqualTo(404);
			assertThat(response.body()).contains("spanprofile.startup.enabled=false");
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> step(Map<String, Object> page, String bean) {
		return ((List<Map<String, Object>>) page.get("slowest")).stream()
			.filter((step) -> "spring.beans.instantiate".equals(step.get("name")) && bean.equals(step.get("detail")))
			.findFirst()
			.orElseThrow(
					() -> new AssertionError("no step for " + bean + " among the slowest: " + page.get("slowest")));
	}

	private static double number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).doubleValue();
	}

	static long samplesWith(String collapsed, String frame) {
		return collapsed.lines()
			.filter((line) -> line.contains(frame))
			.mapToLong((line) -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
	}

	private static Map<String, Object> getJson(ConfigurableApplicationContext context, String path) throws Exception {
		HttpResponse<String> response = get(context, path);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json.readValue(response.body(), new TypeReference<>() {
		});
	}

	private static String getText(ConfigurableApplicationContext context, String path) throws Exception {
		HttpResponse<String> response = get(context, path);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.body();
	}

	private static HttpResponse<String> get(ConfigurableApplicationContext context, String path) throws Exception {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
	}

}
