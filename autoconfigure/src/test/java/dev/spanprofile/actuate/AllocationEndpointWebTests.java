package dev.spanprofile.actuate;

import java.util.Map;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spanprofile.event=cpu,alloc,lock}: a request that allocates gets an allocation
 * graph weighted by bytes, its bytes in the list, and pages in MB.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile", "spanprofile.dump-interval=30s",
				"spanprofile.event=cpu,alloc,lock", "spanprofile.alloc-interval=32KB",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class AllocationEndpointWebTests {

	private static final long ALLOC_INTERVAL = 32 * 1024;

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Test
	void anAllocatingRequestShowsItsBytesInTheAllocatingMethod() throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		long allocated = 64L * 1024 * 1024;
		assertThat(endpoint.get("/allocate?megabytes=64", "text/plain").body()).isEqualTo("allocated");
		Map<String, Object> span = endpoint.awaitCompleteSpan("http get /allocate");
		String id = (String) span.get("spanId");

		String alloc = endpoint.get("/actuator/spanprofile/" + id + "?event=alloc", "text/plain").body();
		long inMethod = EndpointClient.samplesWith(alloc, "recognisablyAllocatingMethod");
		long total = EndpointClient.samplesWith(alloc, "");
		long listed = ((Number) span.get("allocatedBytes")).longValue();
		System.out.printf("alloc endpoint: %d of %d bytes in the allocating method, list says %d, allocated %d%n",
				inMethod, total, listed, allocated);
		assertThat(inMethod).isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
		assertThat(listed).isEqualTo(total);
		// Samples of ~32 KiB each vary like a Poisson count: four deviations either way.
		// async-profiler loses the samples taken while it dumps: with dumps 30 s apart
		// only the collects the client asks for, after the request, dump.
		double expected = (double) allocated / ALLOC_INTERVAL;
		assertThat((double) total / ALLOC_INTERVAL).isBetween(expected - 4 * Math.sqrt(expected),
				expected + 4 * Math.sqrt(expected));

		assertThat(endpoint.json("/actuator/spanprofile/" + id + "?event=alloc"))
			.containsEntry("flameGraphEvent", "alloc")
			.containsEntry("flameGraphUnit", "bytes");
		String page = endpoint.get("/actuator/spanprofile/" + id + "?event=alloc", "text/html").body();
		assertThat(page).contains("MB allocated").contains("\"unit\":\"bytes\"");
		assertThat(endpoint.get("/actuator/spanprofile/" + id + "?event=lock", "application/json").statusCode())
			.isEqualTo(200);
		assertThat(endpoint.get("/actuator/spanprofile/" + id + "?event=wall", "application/json").statusCode())
			.isEqualTo(400);
	}

}
