package dev.spanprofile.test.flux;

import java.time.Duration;

import dev.spanprofile.test.InconclusiveProfileException;
import dev.spanprofile.test.ProfiledTest;
import dev.spanprofile.test.RequestProfile;
import dev.spanprofile.test.ShareAssert;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;

import static dev.spanprofile.test.SpanProfileAssertions.assertThatProfile;
import static dev.spanprofile.test.SpanProfileAssertions.ofLastRequest;
import static dev.spanprofile.test.SpanProfileAssertions.ofRequestsIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Profile assertions on a real WebFlux application on Netty, called through
 * WebTestClient: the work runs on Reactor's workers and is attributed to the request
 * through context propagation. One application context.
 */
@SpringBootTest(classes = WorkFluxApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.main.web-application-type=reactive", "spring.reactor.context-propagation=auto" })
@AutoConfigureWebTestClient
@ProfiledTest(event = { "cpu", "alloc" }, allocInterval = "64KB")
class FluxProfileAssertionsTests {

	@Autowired
	WebTestClient client;

	@Test
	void cpuBurntInAKnownMethodPassesAtLeastAndFailsAtMost() {
		for (int i = 0; i < 3; i++) {
			get("/burn?cpuMillis=1");
		}
		get("/burn?cpuMillis=300");
		RequestProfile profile = ofLastRequest();
		assertThatProfile(profile).cpuShareUnder("RecognisableWork.burn").isAtLeast(0.8);
		ShareAssert inTheMethod = assertThatProfile(profile).cpuShareUnder("recognisablyBurningMethod");
		assertThat(inTheMethod.share()).isBetween(0.5, 1.0);
		assertThatThrownBy(() -> inTheMethod.isAtMost(0.1)).isInstanceOf(AssertionError.class).satisfies((failure) -> {
			System.out.println("flux cpu failure: " + failure.getMessage());
			assertThat(failure.getMessage())
				.startsWith("Expected the cpu share under \"recognisablyBurningMethod\" to be at most 0.10, but it "
						+ "was ")
				.containsPattern("was [01]\\.\\d\\d: \\d+ of \\d+ cpu samples")
				.contains("Top self-time frames (cpu):")
				.contains("RecognisableWork.recognisablyBurningMethod")
				.containsPattern("Flame graph: /\\S+/target/spanprofile/\\S+\\.cpu\\.html");
		});
	}

	@Test
	void anAllocationBudgetPassesAndFails() {
		RequestProfile profile = ofRequestsIn(() -> get("/allocate?kilobytes=32768"));
		assertThat(profile.requestCount()).isEqualTo(1);
		assertThatProfile(profile).allocatedBytes().isAtMost(64L << 20).isAtLeast(16L << 20);
		// 32 MiB in samples of 64 KiB: 512 samples, a Poisson count; four deviations
		// either way.
		double samples = assertThatProfile(profile).allocatedBytes().bytesPerRequest() / (64 * 1024);
		assertThat(samples).isBetween(512 - 4 * Math.sqrt(512), 512 + 4 * Math.sqrt(512) + 16);
		assertThatThrownBy(() -> assertThatProfile(profile).allocatedBytes().isAtMost(8L << 20))
			.isInstanceOf(AssertionError.class)
			.hasMessageStartingWith(
					"Expected http get /allocate allocated per request to be at most 8.0 MiB, but it " + "was ")
			.hasMessageContaining("allocation samples of 64.0 KiB over 1 request(s)")
			.hasMessageContaining("RecognisableWork.recognisablyAllocatingMethod");
	}

	@Test
	void tooFewSamplesAreRefused() {
		get("/burn?cpuMillis=2");
		assertThatThrownBy(
				() -> assertThatProfile(ofLastRequest()).cpuShareUnder("RecognisableWork.burn").isAtLeast(0.5))
			.isInstanceOf(InconclusiveProfileException.class)
			.hasMessageMatching("(?s)^1?\\d samples: too few to tell whether the cpu share under .*");
	}

	private void get(String uri) {
		// WebTestClient gives up after 5 s: a first request on a busy machine (classes
		// loaded, Netty warming up) can take longer.
		this.client.mutate()
			.responseTimeout(Duration.ofSeconds(30))
			.build()
			.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isOk();
	}

}
