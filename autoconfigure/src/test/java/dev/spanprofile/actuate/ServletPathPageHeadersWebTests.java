package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under a {@code spring.mvc.servlet.path} every URL, the actuator's included, starts with
 * that path: the pages still get their Content-Security-Policy header (not only the
 * {@code <meta>} policy) and the other page headers.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.mvc.servlet.path=/app", "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class ServletPathPageHeadersWebTests {

	private static final Pattern SPAN_ID = Pattern.compile("\"spanId\":\"([0-9a-f]{16})\"");

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Test
	void pagesUnderTheServletPathCarryTheSecurityHeaders() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		assertThat(client.get("/app/burn?cpuMillis=20", "text/plain").body()).isEqualTo("burnt");
		String spanId = null;
		long deadline = System.nanoTime() + 15_000_000_000L;
		while (spanId == null && System.nanoTime() < deadline) {
			this.profiler.collectNow();
			HttpResponse<String> list = client.get("/app/actuator/spanprofile?name=burn", "application/json");
			assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
			Matcher id = SPAN_ID.matcher(list.body());
			spanId = id.find() ? id.group(1) : null;
		}
		assertThat(spanId).as("the request's span").isNotNull();
		for (String path : List.of("/app/actuator/spanprofile", "/app/actuator/spanprofile/" + spanId)) {
			HttpResponse<String> page = client.get(path, EndpointClient.BROWSER_ACCEPT);
			assertThat(page.statusCode()).as(path).isEqualTo(200);
			assertThat(page.headers().firstValue("Content-Security-Policy")).as(path)
				.hasValueSatisfying((policy) -> assertThat(policy).contains("default-src 'none'")
					.contains("frame-ancestors 'self'"));
			assertThat(page.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
			assertThat(page.headers().firstValue("Referrer-Policy")).as(path).hasValue("no-referrer");
		}
		// The application's own requests are not the filter's business.
		HttpResponse<String> own = client.get("/app/burn?cpuMillis=1", "text/plain");
		assertThat(own.headers().firstValue("Content-Security-Policy")).isEmpty();
	}

}
