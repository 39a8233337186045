package dev.spanprofile.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code management.endpoint.spanprofile.access=none} removes the endpoint even though it
 * is exposed, for an operator as for anyone; profiling itself goes on.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile",
				"management.endpoint.spanprofile.access=none", "management.otlp.metrics.export.enabled=false",
				"spring.autoconfigure.exclude="
						+ "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
@Import(ActuatorSecurityConfiguration.class)
@DirtiesContext
class SpanProfileEndpointAccessTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	ApplicationContext context;

	@Autowired
	SpanProfiler profiler;

	@Test
	void accessNoneRemovesTheEndpointForEveryone() throws Exception {
		String operator = ActuatorSecurityConfiguration.OPS_USER + ":" + ActuatorSecurityConfiguration.OPS_PASSWORD;
		for (String credentials : new String[] { operator, null }) {
			assertThat(get("/actuator/spanprofile", credentials).statusCode()).isEqualTo(404);
			assertThat(get("/actuator/spanprofile/0123456789abcdef", credentials).statusCode()).isEqualTo(404);
		}
		assertThat(get("/actuator/health", null).statusCode()).as("the rest of the actuator").isEqualTo(200);
		assertThat(this.context.getBeansOfType(SpanProfileEndpoint.class)).isEmpty();
		assertThat(this.profiler.status().running()).as("profiling without the endpoint").isTrue();
	}

	private HttpResponse<String> get(String path, String credentials) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("Accept", "application/json");
		if (credentials != null) {
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
