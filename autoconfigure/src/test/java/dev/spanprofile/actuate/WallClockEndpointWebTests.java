package dev.spanprofile.actuate;

import java.util.Map;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spanprofile.event=cpu,wall}: one request that waits gets both flame graphs,
 * chosen with {@code ?event=}.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = {
				// Its sample counts are bounded for 10 ms, not the default 20 ms.
				"spanprofile.interval=10ms", "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile", "spanprofile.dump-interval=200ms",
				"spanprofile.event=cpu,wall", "management.otlp.metrics.export.enabled=false" })
class WallClockEndpointWebTests {

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Test
	void aWaitingRequestShowsItsWaitInTheWallGraphOnly() throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		assertThat(endpoint.get("/wait?millis=400", "text/plain").body()).isEqualTo("waited");
		Map<String, Object> span = endpoint.awaitCompleteSpan("http get /wait");
		assertThat(span).containsKey("samplesByEvent");
		String id = (String) span.get("spanId");

		String wall = endpoint.get("/actuator/spanprofile/" + id + "?event=wall", "text/plain").body();
		String cpu = endpoint.get("/actuator/spanprofile/" + id + "?event=cpu", "text/plain").body();
		long waiting = EndpointClient.samplesWith(wall, "recognisablySleepyMethod");
		System.out.printf("wall endpoint: %d wall samples in the sleep (expected ~40), %d cpu samples there%n", waiting,
				EndpointClient.samplesWith(cpu, "recognisablySleepyMethod"));
		assertThat(waiting).isGreaterThanOrEqualTo(20);
		// A sleeping thread uses no CPU: the one sleep may catch a CPU sample on its way
		// in and out, no more, however long it lasts.
		assertThat(EndpointClient.samplesWith(cpu, "recognisablySleepyMethod")).isLessThanOrEqualTo(2);

		Map<String, Object> json = endpoint.json("/actuator/spanprofile/" + id + "?event=wall");
		assertThat(json).containsEntry("flameGraphEvent", "wall").containsEntry("event", "cpu,wall,waits");
		assertThat(endpoint.get("/actuator/spanprofile/" + id + "?event=alloc", "application/json").statusCode())
			.isEqualTo(400);
	}

}
