package dev.spanprofile.compat.brave;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Profile this request under Brave: Brave's sampler samples nothing, yet the request with
 * the token is traced, its response names its span, and its graph holds its hot method.
 */
class BraveOnDemandTests {

	private static final Pattern SPAN_TIMING = Pattern.compile("spanprofile;desc=\"([0-9a-f]{16})\"");

	private static ConfigurableApplicationContext context;

	private static int port;

	private final HttpClient http = HttpClient.newHttpClient();

	@BeforeAll
	static void start() {
		context = SpringApplication.run(BraveMvcApplication.class, "--server.port=0",
				"--management.tracing.sampling.probability=0.0",
				"--management.endpoints.web.exposure.include=spanprofile", "--spanprofile.dump-interval=200ms",
				"--spanprofile.interval=10ms", "--spanprofile.on-demand.enabled=true",
				"--spanprofile.on-demand.token=brave-token", "--management.tracing.export.zipkin.enabled=false",
				"--management.tracing.export.enabled=false");
		port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void headerWithTheTokenForcesATraceUnderANothingSampler() throws Exception {
		HttpResponse<String> forced = get("/alpha?cpuMillis=300", "brave-token");
		assertThat(forced.body()).isEqualTo("alpha");
		String timing = forced.headers().firstValue("Server-Timing").orElseThrow();
		Matcher matcher = SPAN_TIMING.matcher(timing);
		assertThat(matcher.matches()).as(timing).isTrue();
		String spanId = matcher.group(1);

		String collapsed = get("/actuator/spanprofile/" + spanId + "?event=cpu&await=10s", null).body();
		long hot = 0;
		for (String line : collapsed.split("\n")) {
			if (line.contains("BurnController.alphaHotMethod")) {
				hot += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		// 300 ms of CPU at 10 ms: about 30 samples.
		assertThat(hot).as(collapsed).isBetween(12L, 60L);

		HttpResponse<String> wrong = get("/alpha?cpuMillis=1", "brave-tokeN");
		assertThat(wrong.headers().firstValue("Server-Timing")).isEmpty();
		String list = get("/actuator/spanprofile?name=alpha", null).body();
		assertThat(list).contains(spanId);
		assertThat(list.split("\"spanId\"", -1)).hasSize(2);
	}

	private HttpResponse<String> get(String path, String token) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("Accept", "text/plain");
		if (token != null) {
			request.header("X-Spanprofile", token);
		}
		if (path.startsWith("/actuator/spanprofile?")) {
			request.setHeader("Accept", "application/json");
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
