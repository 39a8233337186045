package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.reactive.HopsApplication;
import dev.spanprofile.store.RetainedAs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Profile this request on WebFlux, whose span starts before any web filter: forced under
 * a sampler that samples nothing, its work after a hop to another thread in its graph.
 */
@SpringBootTest(classes = HopsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "management.tracing.sampling.probability=0.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false", "spanprofile.on-demand.enabled=true",
				"spanprofile.on-demand.allow-loopback=true" })
@DirtiesContext
class OnDemandWebFluxTests {

	private static final Pattern SPAN_TIMING = Pattern.compile("spanprofile;desc=\"([0-9a-f]{16})\"");

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
	void loopbackCallerForcesATraceAndGetsItsSpanId() throws Exception {
		// The route's first request initialises WebFlux's handler and compiles the hot
		// method: not the one measured.
		assertThat(this.endpoint.get("/subscribe-on?cpuMillis=50", "text/plain").statusCode()).isEqualTo(200);
		HttpResponse<String> response = this.endpoint.get("/subscribe-on?cpuMillis=400", "text/plain", "X-Spanprofile",
				"1");
		assertThat(response.statusCode()).isEqualTo(200);
		String serverTiming = response.headers().firstValue("Server-Timing").orElseThrow();
		Matcher matcher = SPAN_TIMING.matcher(serverTiming);
		assertThat(matcher.matches()).as(serverTiming).isTrue();
		String spanId = matcher.group(1);
		assertThat(response.headers().firstValue("Link")).hasValueSatisfying(
				(link) -> assertThat(link).startsWith("</actuator/spanprofile/" + spanId + "?format=html>"));

		HttpResponse<String> graph = this.endpoint.get("/actuator/spanprofile/" + spanId + "?await=10s", "text/plain");
		assertThat(graph.statusCode()).as(graph.body()).isEqualTo(200);
		long hot = EndpointClient.samplesWith(graph.body(), "HopsController.subscribeOnHotMethod");
		// 400 ms of CPU at 20 ms: about 20 samples.
		assertThat(hot).isBetween(8L, 40L);
		assertThat(this.profiler.store().find(spanId).retainedAs()).isEqualTo(RetainedAs.FORCED);

		// Without the header: not traced, no header (nor was the warm-up request).
		HttpResponse<String> plain = this.endpoint.get("/subscribe-on?cpuMillis=1", "text/plain");
		assertThat(plain.headers().firstValue("Server-Timing")).isEmpty();
		this.profiler.collectNow();
		assertThat(this.endpoint.spans("?name=subscribe-on")).extracting((span) -> span.get("spanId"))
			.containsExactly(spanId);
	}

}
