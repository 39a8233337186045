package dev.spanprofile.actuate;

import java.util.Map;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests served on virtual threads (JDK 21+; runs in the JDK 25 execution): auto
 * selects Flight Recorder, and a request's span gets its own samples.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.threads.virtual.enabled=true", "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
class VirtualThreadWebTests {

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Test
	void requestsOnVirtualThreadsGetTheirOwnFlameGraphs() throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		assertThat(endpoint.json("/actuator/spanprofile")).containsEntry("engine", "jfr");
		assertThat(endpoint.get("/burn?cpuMillis=1000", "text/plain").body()).isEqualTo("burnt");
		Map<String, Object> span = endpoint.awaitCompleteSpan("http get /burn");
		// Spring Boot names the virtual threads it serves requests on tomcat-handler-N.
		assertThat((String) span.get("thread")).as("served on a virtual thread").startsWith("tomcat-handler-");
		String collapsed = endpoint.get("/actuator/spanprofile/" + span.get("spanId"), "text/plain").body();
		long total = EndpointClient.samplesWith(collapsed, "");
		long hot = EndpointClient.samplesWith(collapsed, "recognisablyHotMethod");
		System.out.printf("virtual-thread request: %d of %d samples in the hot method%n", hot, total);
		// A second of burning; on a shared machine the virtual thread may get a fraction
		// of a core.
		assertThat(hot).isGreaterThan(10).isGreaterThanOrEqualTo((long) (total * 0.8));
	}

}
