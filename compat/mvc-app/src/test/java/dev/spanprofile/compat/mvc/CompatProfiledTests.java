package dev.spanprofile.compat.mvc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.spanprofile.test.ProfiledTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

import static dev.spanprofile.test.SpanProfileAssertions.assertThatProfile;
import static dev.spanprofile.test.SpanProfileAssertions.ofRequestsIn;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spanprofile-test} on the Spring Boot line this module is built with: a request's
 * profile asserted on in a {@code @SpringBootTest}, with nothing but APIs every supported
 * line shares (no Boot test client).
 */
@SpringBootTest(classes = CompatMvcApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.otlp.metrics.export.enabled=false", "management.tracing.export.enabled=false",
				"management.otlp.tracing.export.enabled=false" })
@ProfiledTest
class CompatProfiledTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Value("${local.server.port}")
	int port;

	@Test
	void aRequestSpendsItsCpuInItsOwnHotMethod() throws Exception {
		// The first request initialises Spring MVC inside its span: kept out of the
		// profile asserted on.
		alpha(1);
		assertThatProfile(ofRequestsIn(() -> alpha(500))).cpuShareUnder("alphaHotMethod").isAtLeast(0.8);
	}

	private void alpha(long cpuMillis) throws Exception {
		HttpResponse<String> response = this.http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/alpha?cpuMillis=" + cpuMillis))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.body()).isEqualTo("alpha");
	}

}
