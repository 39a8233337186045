package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The profiler's own signals on a real application: its metrics in
 * {@code /actuator/metrics} move as requests are profiled and agree with what the
 * spanprofile endpoint reports, and health and info show the engine.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,info,metrics,prometheus,spanprofile",
				"management.endpoint.health.show-details=always", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class ProfilerSignalsWebTests {

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	private EndpointClient endpoint;

	@AfterEach
	void restart() {
		// The metrics test stops the profiler to compare frozen values; the next test
		// expects it running.
		this.profiler.start();
	}

	@BeforeEach
	void profilerRuns() {
		this.endpoint = new EndpointClient(this.port, this.profiler);
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
	}

	@Test
	void metricsMoveWithProfiledRequestsAndAgreeWithTheEndpoint() throws Exception {
		double attributedBefore = metric("spanprofile.samples?tag=result:attributed");
		double cyclesBefore = metric("spanprofile.collection");
		assertThat(health()).containsEntry("status", "UP");
		assertThat(details(health())).containsEntry("state", "running")
			.containsEntry("engine", this.profiler.status().engine())
			.containsEntry("event", this.profiler.status().event())
			.doesNotContainKey("problem");

		java.util.Set<String> known = this.endpoint.spanIds();
		long burnSamples = 0;
		for (int i = 0; i < 3; i++) {
			assertThat(this.endpoint.get("/burn?cpuMillis=300", "text/plain").body()).isEqualTo("burnt");
			Map<String, Object> span = this.endpoint.awaitNewCompleteSpan("http get /burn", known);
			known.add((String) span.get("spanId"));
			burnSamples += ((Number) span.get("samples")).longValue();
		}
		// Stopped, nothing moves: the metrics and the endpoint can be compared exactly.
		this.profiler.stop();
		Map<String, Object> engine = this.endpoint.json("/actuator/spanprofile?limit=100000");
		@SuppressWarnings("unchecked")
		Map<String, Object> samples = (Map<String, Object>) engine.get("samples");
		double attributed = metric("spanprofile.samples?tag=result:attributed");
		assertThat(attributed).isEqualTo(((Number) samples.get("attributed")).doubleValue());
		assertThat(metric("spanprofile.samples?tag=result:outside"))
			.isEqualTo(((Number) samples.get("outsideSpans")).doubleValue());
		assertThat(metric("spanprofile.samples?tag=result:unknown"))
			.isEqualTo(((Number) samples.get("unknown")).doubleValue());
		// Three spans of 300 ms CPU at 10 ms: about 90 samples, all of which the counter
		// saw move past.
		assertThat(burnSamples).isGreaterThan(20);
		assertThat(attributed - attributedBefore).isGreaterThanOrEqualTo(burnSamples);
		assertThat(metric("spanprofile.samples?tag=result:attributed&tag=event:cpu")
				+ metric("spanprofile.samples?tag=result:attributed&tag=event:wall"))
			.isEqualTo(attributed);

		HttpResponse<String> scrape = this.endpoint.get("/actuator/prometheus", "text/plain");
		assertThat(scrape.statusCode()).isEqualTo(200);
		assertThat(
				prometheusValue(scrape.body(), "spanprofile_samples_total", "event=\"cpu\"", "result=\"attributed\""))
			.isEqualTo(metric("spanprofile.samples?tag=result:attributed&tag=event:cpu"));
		assertThat(scrape.body()).contains("spanprofile_collection_seconds_count", "spanprofile_store_bytes",
				"spanprofile_spans_stored", "spanprofile_timeline_gaps_total");

		@SuppressWarnings("unchecked")
		List<Map<String, Object>> spans = (List<Map<String, Object>>) engine.get("spans");
		long storedSamples = spans.stream().mapToLong((span) -> ((Number) span.get("samples")).longValue()).sum();
		assertThat(attributed).isGreaterThanOrEqualTo(storedSamples);
		assertThat(metric("spanprofile.spans.stored")).isEqualTo(this.profiler.store().size())
			.isGreaterThanOrEqualTo(3);
		assertThat(metric("spanprofile.store.bytes")).isEqualTo(this.profiler.store().approximateBytes());
		assertThat(metric("spanprofile.spans.evicted")).isZero();
		double cycles = metric("spanprofile.collection");
		System.out.printf(
				"profiler signals: %d samples in 3 burn spans, attributed metric +%.0f (now %.0f), outside %.0f, "
						+ "unknown %.0f, %.0f collection cycles, mean %.2f ms, %d spans stored, %d bytes%n",
				burnSamples, attributed - attributedBefore, attributed,
				metric("spanprofile.samples?tag=result:outside"), metric("spanprofile.samples?tag=result:unknown"),
				cycles, this.profiler.collectionCycles().totalNanos() / 1e6 / cycles, this.profiler.store().size(),
				this.profiler.store().approximateBytes());
		assertThat(cycles).isEqualTo(this.profiler.collectionCycles().count()).isGreaterThan(cyclesBefore);

		// A stopped profiler is a state, not an outage: the instance stays in rotation.
		Map<String, Object> health = health();
		assertThat(health).containsEntry("status", "UP");
		assertThat(details(health)).containsEntry("state", "stopped").containsEntry("problem", "stopped");
	}

	@Test
	void infoShowsEngineAndVersion() throws Exception {
		Map<String, Object> info = this.endpoint.json("/actuator/info");
		assertThat(info).containsKey("spanprofile");
		@SuppressWarnings("unchecked")
		Map<String, Object> spanprofile = (Map<String, Object>) info.get("spanprofile");
		assertThat(spanprofile).containsEntry("engine", this.profiler.status().engine());
		assertThat((String) spanprofile.get("version")).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
	}

	private Map<String, Object> health() throws Exception {
		HttpResponse<String> response = this.endpoint.get("/actuator/health", "application/json");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return this.endpoint.readJson(response.body());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> details(Map<String, Object> health) {
		Map<String, Object> components = (Map<String, Object>) health.get("components");
		assertThat(components).containsKey("spanprofile");
		Map<String, Object> spanprofile = (Map<String, Object>) components.get("spanprofile");
		assertThat(spanprofile).containsEntry("status", "UP");
		return (Map<String, Object>) spanprofile.get("details");
	}

	private static double prometheusValue(String scrape, String name, String... labels) {
		for (String line : scrape.split("\n")) {
			if (line.startsWith(name + "{") && java.util.Arrays.stream(labels).allMatch(line::contains)) {
				return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		throw new AssertionError("No " + name + " with " + List.of(labels) + " in\n" + scrape);
	}

	/** The single measurement (count or value) of a metric in /actuator/metrics. */
	@SuppressWarnings("unchecked")
	private double metric(String nameAndTags) throws Exception {
		Map<String, Object> body = this.endpoint.json("/actuator/metrics/" + nameAndTags);
		List<Map<String, Object>> measurements = (List<Map<String, Object>>) body.get("measurements");
		return ((Number) measurements.get(0).get("value")).doubleValue();
	}

}
