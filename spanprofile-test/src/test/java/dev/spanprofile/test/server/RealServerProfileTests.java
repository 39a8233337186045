package dev.spanprofile.test.server;

import java.util.concurrent.CompletableFuture;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.RetainedAs;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.test.ProfileHeader;
import dev.spanprofile.test.ProfiledTest;
import dev.spanprofile.test.RequestProfile;
import dev.spanprofile.test.mvc.WorkMvcApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static dev.spanprofile.test.SpanProfileAssertions.assertThatProfile;
import static dev.spanprofile.test.SpanProfileAssertions.ofRequest;
import static dev.spanprofile.test.SpanProfileAssertions.profileHeader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One request of a real server, sent over HTTP with the profile header while another
 * request runs beside it: its response's {@code Server-Timing} names its span, and
 * {@code ofRequest} profiles that request, on the server's thread, not the other one.
 */
@SpringBootTest(classes = WorkMvcApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ProfiledTest
class RealServerProfileTests {

	@LocalServerPort
	int port;

	@Test
	void theRequestSentWithTheHeaderIsProfiledOnTheServer() {
		RestClient client = RestClient.create("http://127.0.0.1:" + this.port);
		// Spring MVC's first requests load classes inside their spans: kept out of the
		// one measured.
		for (int i = 0; i < 3; i++) {
			client.get().uri("/burn?cpuMillis=1").retrieve().body(String.class);
		}
		CompletableFuture<String> beside = CompletableFuture
			.supplyAsync(() -> client.get().uri("/allocate?kilobytes=4096").retrieve().body(String.class));
		ProfileHeader header = profileHeader();
		ResponseEntity<String> response = client.get()
			.uri("/burn?cpuMillis=300")
			.header(header.name(), header.value())
			.retrieve()
			.toEntity(String.class);
		beside.join();
		assertThat(response.getBody()).isEqualTo("burnt");
		String serverTiming = response.getHeaders().getFirst("Server-Timing");
		assertThat(serverTiming).matches("spanprofile;desc=\"[0-9a-f]{16}\"");

		RequestProfile profile = ofRequest(serverTiming);
		SpanRecord request = profile.requests().get(0);
		assertThat(request.spanId()).isEqualTo(serverTiming.substring(18, 34));
		assertThat(request.name()).isEqualTo("http get /burn");
		assertThat(request.retainedAs()).isEqualTo(RetainedAs.FORCED);
		assertThat(request.threadName()).isNotEqualTo(Thread.currentThread().getName());
		// 300 ms of CPU at 1 ms: about 300 samples in the method; a third either way
		// would be samples lost or given to the other request.
		double share = assertThatProfile(profile).cpuShareUnder("recognisablyBurningMethod").share();
		long all = profile.samplesOf(SampleKind.CPU).totalSamples();
		long hot = Math.round(share * all);
		System.out.println("real server: " + hot + " of " + all + " cpu samples in the method");
		assertThat(share).isBetween(0.5, 1.0);
		assertThat(hot).isBetween(200L, 400L);
		assertThat(assertThatProfile(profile).cpuShareUnder("recognisablyAllocatingMethod").share()).isZero();
	}

	@Test
	void aResponseWithoutTheHeaderNamesNoRequest() {
		RestClient client = RestClient.create("http://127.0.0.1:" + this.port);
		ResponseEntity<String> response = client.get().uri("/burn?cpuMillis=1").retrieve().toEntity(String.class);
		String serverTiming = response.getHeaders().getFirst("Server-Timing");
		assertThat(serverTiming).isNull();
		assertThatThrownBy(() -> ofRequest(serverTiming)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("No Server-Timing header");
		assertThatThrownBy(() -> ofRequest("spanprofile;desc=\"not profiled: rate limit\""))
			.hasMessage("The request was not profiled: rate limit");
		assertThat(profileHeader().toString()).doesNotContain(profileHeader().value());
	}

}
