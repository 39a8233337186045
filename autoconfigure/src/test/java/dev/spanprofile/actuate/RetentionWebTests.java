package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.store.RetainedAs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Someone who saw a slow or failed request in a trace viewer comes looking long after: on
 * a real server under steady load of the same endpoint, the slow request and the failed
 * one are still served, and say why.
 */
@SpringBootTest(classes = OrdersApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false", "spanprofile.max-spans=50",
				"spanprofile.max-memory=4MB", "spanprofile.retention.slowest-per-name=5" })
@DirtiesContext
class RetentionWebTests {

	private static final String NAME = "http get /orders";

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
	void slowAndFailedRequestsOutliveTwentyTimesMaxSpansOfLaterRequests() throws Exception {
		Set<String> beforeSlow = this.endpoint.spanIds();
		assertThat(this.endpoint.get("/orders?cpuMillis=400", "text/plain").body()).isEqualTo("ordered");
		Map<String, Object> slow = this.endpoint.awaitNewCompleteSpan(NAME, beforeSlow);
		String slowId = (String) slow.get("spanId");
		// Fill the other slots of the name with requests clearly slower than the failure
		// to come.
		for (int i = 0; i < 5; i++) {
			this.endpoint.get("/orders?sleepMillis=250", "text/plain");
		}
		// The first failure pays for the error page's warm-up; the one under test is the
		// second.
		this.endpoint.get("/orders?fail=true&sleepMillis=300", "text/plain");
		Set<String> before = this.endpoint.spanIds();
		HttpResponse<String> failed = this.endpoint.get("/orders?fail=true", "application/json");
		assertThat(failed.statusCode()).isEqualTo(500);
		Map<String, Object> error = this.endpoint.awaitSpan(NAME,
				(span) -> "ERROR".equals(span.get("status")) && !before.contains(span.get("spanId")));
		String errorId = (String) error.get("spanId");
		assertThat(error.get("retainedAs")).isEqualTo("error");

		for (int i = 0; i < 1100; i++) {
			assertThat(this.endpoint.get("/orders", "text/plain").statusCode()).isEqualTo(200);
		}
		this.profiler.collectNow();
		long maxBytes = 4L * 1024 * 1024;
		assertThat(this.profiler.store().size()).isLessThanOrEqualTo(50);
		assertThat(this.profiler.store().approximateBytes()).isLessThanOrEqualTo(maxBytes);

		// The slow request is still served, its hot method in its flame graph, and says
		// why it is there.
		HttpResponse<String> graph = this.endpoint.get("/actuator/spanprofile/" + slowId, "text/plain");
		assertThat(graph.statusCode()).isEqualTo(200);
		long hot = EndpointClient.samplesWith(graph.body(), "OrdersController.recognisablySlowPricing");
		// 400 ms of CPU at 10 ms: about 40 samples; a third of that would already mean
		// most of them were lost.
		assertThat(hot).isGreaterThan(13);
		Map<String, Object> body = this.endpoint.json("/actuator/spanprofile/" + slowId);
		@SuppressWarnings("unchecked")
		Map<String, Object> span = (Map<String, Object>) body.get("span");
		assertThat(span.get("retainedAs")).isEqualTo("slowest");
		assertThat(this.profiler.store().find(errorId).retainedAs()).isEqualTo(RetainedAs.ERROR);

		// The list tells the kept ones from the recent ones.
		List<Map<String, Object>> listed = this.endpoint.spans("?limit=1000");
		assertThat(listed).filteredOn((s) -> s.get("spanId").equals(slowId))
			.singleElement()
			.satisfies((s) -> assertThat(s.get("retainedAs")).isEqualTo("slowest"));
		assertThat(listed).filteredOn((s) -> s.get("spanId").equals(errorId))
			.singleElement()
			.satisfies((s) -> assertThat(s.get("retainedAs")).isEqualTo("error"));
		assertThat(listed).filteredOn((s) -> "recent".equals(s.get("retainedAs"))).hasSizeGreaterThan(20);
		assertThat(listed).allSatisfy((s) -> assertThat(s.get("retainedAs")).isIn("recent", "slowest", "error"));

		HttpResponse<String> page = this.endpoint.get("/actuator/spanprofile?minDurationMillis=350",
				EndpointClient.BROWSER_ACCEPT);
		assertThat(page.body()).contains("href=\"spanprofile/" + slowId + "\"")
			.contains("data-retained=\"slowest\"")
			.contains("kept · slowest");
	}

}
