package dev.spanprofile.actuate;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With a separate management server (its own port and base path) the {@code Link} of a
 * forced request is absolute, on that server: following it from the application's page
 * gives the flame graph's page, not the application's 404.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "server.servlet.context-path=/shop", "management.server.port=0",
				"management.server.base-path=/manage", "management.endpoints.web.exposure.include=health,spanprofile",
				"management.otlp.metrics.export.enabled=false", "spanprofile.on-demand.enabled=true",
				"spanprofile.on-demand.token=s3cret-token" })
class OnDemandLinkOnManagementPortWebTests {

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	@Test
	void linkResolvesOnTheManagementServer() throws Exception {
		assertThat(this.managementPort).isNotEqualTo(this.port);
		String application = "http://127.0.0.1:" + this.port + "/shop/burn?cpuMillis=1";
		HttpResponse<String> response = OnDemandLinkUnderContextPathWebTests.send(application, true);
		assertThat(response.body()).isEqualTo("burnt");
		String link = response.headers().firstValue("Link").orElseThrow();
		Matcher matcher = OnDemandLinkUnderContextPathWebTests.LINK.matcher(link);
		assertThat(matcher.matches()).as(link).isTrue();
		assertThat(matcher.group(1)).matches("http://127\\.0\\.0\\.1:" + this.managementPort
				+ "/manage/actuator/spanprofile/[0-9a-f]{16}\\?format=html");
		HttpResponse<String> page = OnDemandLinkUnderContextPathWebTests
			.send(URI.create(application).resolve(matcher.group(1)).toString(), false);
		assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
		assertThat(page.body()).contains("http get /burn");
	}

}
