package dev.spanprofile.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under {@code server.servlet.context-path} (and a base path and path mapping of the
 * actuator's own) the {@code Link} of a forced request names the flame graph's page where
 * it is served: following it gives the page.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "server.servlet.context-path=/shop", "management.endpoints.web.base-path=/ops",
				"management.endpoints.web.path-mapping.spanprofile=profiles",
				"management.endpoints.web.exposure.include=health,spanprofile",
				"management.otlp.metrics.export.enabled=false", "spanprofile.on-demand.enabled=true",
				"spanprofile.on-demand.token=s3cret-token" })
class OnDemandLinkUnderContextPathWebTests {

	static final Pattern LINK = Pattern.compile("<([^>]+)>; rel=\"related\"; title=\"flame graph\"");

	@LocalServerPort
	int port;

	@Test
	void linkResolvesUnderTheContextPath() throws Exception {
		HttpResponse<String> response = send("http://127.0.0.1:" + this.port + "/shop/burn?cpuMillis=1", true);
		assertThat(response.body()).isEqualTo("burnt");
		String link = response.headers().firstValue("Link").orElseThrow();
		Matcher matcher = LINK.matcher(link);
		assertThat(matcher.matches()).as(link).isTrue();
		assertThat(matcher.group(1)).matches("/shop/ops/profiles/[0-9a-f]{16}\\?format=html");
		HttpResponse<String> page = send(
				URI.create("http://127.0.0.1:" + this.port + "/shop/burn").resolve(matcher.group(1)).toString(), false);
		assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
		assertThat(page.body()).contains("http get /burn");
	}

	static HttpResponse<String> send(String url, boolean withHeader) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/html");
		if (withHeader) {
			request.header("X-Spanprofile", "s3cret-token");
		}
		return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
