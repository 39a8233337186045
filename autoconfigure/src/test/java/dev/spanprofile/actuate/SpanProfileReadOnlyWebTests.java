package dev.spanprofile.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With read-only access the endpoint still serves profiles, but nobody can switch
 * profiling off over HTTP.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile",
				"management.endpoint.spanprofile.access=read-only", "management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class SpanProfileReadOnlyWebTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Test
	void postIsRejectedAndProfilingKeepsRunning() throws Exception {
		URI endpoint = URI.create("http://localhost:" + this.port + "/actuator/spanprofile");
		HttpResponse<String> post = this.http.send(HttpRequest.newBuilder(endpoint)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"enabled\": false}"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(post.statusCode()).as(post.body()).isEqualTo(405);
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
		HttpResponse<String> get = this.http.send(HttpRequest.newBuilder(endpoint).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(get.statusCode()).isEqualTo(200);
		assertThat(get.body()).contains("\"running\":true");
	}

}
