package dev.spanprofile.test.server;

import java.time.Duration;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.RetainedAs;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.test.ProfileHeader;
import dev.spanprofile.test.ProfiledTest;
import dev.spanprofile.test.RequestProfile;
import dev.spanprofile.test.mvc.WorkMvcApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import static dev.spanprofile.test.SpanProfileAssertions.assertThatProfile;
import static dev.spanprofile.test.SpanProfileAssertions.ofRequest;
import static dev.spanprofile.test.SpanProfileAssertions.profileHeader;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RealServerProfileTests}' request sent with {@link WebTestClient} instead of
 * {@code RestClient}: bound to the {@code RANDOM_PORT} server, it sends the profile
 * header over HTTP, and the response's {@code Server-Timing} names the request profiled
 * on the server's thread.
 */
@SpringBootTest(classes = WorkMvcApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
@ProfiledTest
class RealServerWebTestClientTests {

	@Autowired
	WebTestClient client;

	@Test
	void theRequestSentWithTheHeaderIsProfiledOnTheServer() {
		// A first request on a busy machine can take longer than WebTestClient's 5 s.
		WebTestClient client = this.client.mutate().responseTimeout(Duration.ofSeconds(30)).build();
		for (int i = 0; i < 3; i++) {
			client.get().uri("/burn?cpuMillis=1").exchange().expectStatus().isOk();
		}
		ProfileHeader header = profileHeader();
		EntityExchangeResult<String> result = client.get()
			.uri("/burn?cpuMillis=300")
			.header(header.name(), header.value())
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueMatches("Server-Timing", "spanprofile;desc=\"[0-9a-f]{16}\"")
			.expectBody(String.class)
			.isEqualTo("burnt")
			.returnResult();
		String serverTiming = result.getResponseHeaders().getFirst("Server-Timing");

		RequestProfile profile = ofRequest(serverTiming);
		SpanRecord request = profile.requests().get(0);
		assertThat(request.spanId()).isEqualTo(serverTiming.substring(18, 34));
		assertThat(request.name()).isEqualTo("http get /burn");
		assertThat(request.retainedAs()).isEqualTo(RetainedAs.FORCED);
		assertThat(request.threadName()).isNotEqualTo(Thread.currentThread().getName());
		// 300 ms of CPU at 1 ms: about 300 samples in the method, a third either way.
		double share = assertThatProfile(profile).cpuShareUnder("recognisablyBurningMethod").share();
		long hot = Math.round(share * profile.samplesOf(SampleKind.CPU).totalSamples());
		assertThat(share).isBetween(0.5, 1.0);
		assertThat(hot).isBetween(200L, 400L);
	}

	@Test
	void aRequestWithoutTheHeaderIsAnsweredWithoutServerTiming() {
		this.client.mutate()
			.responseTimeout(Duration.ofSeconds(30))
			.build()
			.get()
			.uri("/burn?cpuMillis=1")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.doesNotExist("Server-Timing");
	}

}
