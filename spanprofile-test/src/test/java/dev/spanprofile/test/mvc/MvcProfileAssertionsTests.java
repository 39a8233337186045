package dev.spanprofile.test.mvc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.test.InconclusiveProfileException;
import dev.spanprofile.test.ProfiledTest;
import dev.spanprofile.test.RequestProfile;
import dev.spanprofile.test.ShareAssert;
import dev.spanprofile.test.work.RecognisableWork;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.push.PushMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.ApplicationContext;
import org.springframework.test.web.servlet.MockMvc;

import static dev.spanprofile.test.SpanProfileAssertions.assertThatProfile;
import static dev.spanprofile.test.SpanProfileAssertions.ofLastRequest;
import static dev.spanprofile.test.SpanProfileAssertions.repeat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Profile assertions on a real Spring MVC application called through MockMvc: a request
 * that burns CPU in a known method, one that allocates, one that waits on a slow peer,
 * each passing the budget it meets and failing the one it breaks with the measured
 * figure, the top frames and a flame graph; a request too short to decide on is refused,
 * and its repetitions decide. One application context for the class.
 */
@SpringBootTest(classes = WorkMvcApplication.class)
@AutoConfigureMockMvc
@ExtendWith(OutputCaptureExtension.class)
@ProfiledTest(event = { "cpu", "alloc" }, allocInterval = "64KB")
class MvcProfileAssertionsTests {

	private static final Pattern SAMPLES = Pattern.compile("but it was (\\d\\.\\d\\d): (\\d+) of (\\d+) cpu samples");

	private static final Pattern GRAPH = Pattern.compile("Flame graph: (\\S+)");

	@Autowired
	MockMvc mvc;

	@Test
	void cpuBurntInAKnownMethodPassesAtLeastAndFailsAtMostWithTheEvidence() throws Exception {
		// Spring MVC's first requests load classes inside their spans: kept out of the
		// one measured.
		for (int i = 0; i < 3; i++) {
			this.mvc.perform(get("/burn?cpuMillis=1")).andExpect(status().isOk());
		}
		this.mvc.perform(get("/burn?cpuMillis=300")).andExpect(status().isOk());
		RequestProfile profile = ofLastRequest();
		assertThatProfile(profile).cpuShareUnder("RecognisableWork.burn").isAtLeast(0.8);
		assertThatProfile(profile).cpuShareUnder(Pattern.compile("RecognisableWork\\.(burn|recognisably)"))
			.isAtLeast(0.8);
		// MockMvc ran the request on this thread: the test's frames below it are cut.
		assertThat(assertThatProfile(profile).cpuShareUnder("org.junit").share()).isZero();
		assertThat(assertThatProfile(profile).cpuShareUnder("MvcProfileAssertionsTests").share()).isZero();

		ShareAssert inTheMethod = assertThatProfile(profile).cpuShareUnder("recognisablyBurningMethod");
		// Nearly every sample is in the method: the share is bounded, not spelled (it
		// prints as 1.00 when all but one are).
		assertThat(inTheMethod.share()).isBetween(0.5, 1.0);
		assertThatThrownBy(() -> inTheMethod.isAtMost(0.1)).isInstanceOf(AssertionError.class).satisfies((failure) -> {
			String message = failure.getMessage();
			System.out.println("mvc cpu failure: " + message);
			assertThat(message).startsWith(
					"Expected the cpu share under \"recognisablyBurningMethod\" to be at most 0.10, but it was ");
			Matcher samples = SAMPLES.matcher(message);
			assertThat(samples.find()).as(message).isTrue();
			assertThat(Double.parseDouble(samples.group(1))).isEqualTo(inTheMethod.share(), within(0.005));
			// 300 ms of CPU at 1 ms: about 300 samples in the method; a third either
			// way would be samples lost or given to another request.
			long hits = Long.parseLong(samples.group(2));
			assertThat(hits).isBetween(200L, 400L);
			assertThat(Long.parseLong(samples.group(3))).isBetween(hits, 2 * hits);
			assertThat(message).contains("Top self-time frames (cpu):")
				.contains("dev.spanprofile.test.work.RecognisableWork.recognisablyBurningMethod")
				.contains("http get /burn");
			assertGraphWritten(message, "recognisablyBurningMethod");
		});
	}

	@Test
	void anAllocationBudgetPassesAndFails() throws Exception {
		this.mvc.perform(get("/allocate?kilobytes=32768")).andExpect(status().isOk());
		RequestProfile profile = ofLastRequest();
		assertThatProfile(profile).allocatedBytes().isAtMost(64L << 20).isAtLeast(16L << 20);
		// 32 MiB in samples of 64 KiB: 512 samples, a Poisson count; four deviations
		// either way.
		double samples = assertThatProfile(profile).allocatedBytes().bytesPerRequest() / (64 * 1024);
		assertThat(samples).isBetween(512 - 4 * Math.sqrt(512), 512 + 4 * Math.sqrt(512) + 16);

		assertThatThrownBy(() -> assertThatProfile(profile).allocatedBytes().isAtMost(8L << 20))
			.isInstanceOf(AssertionError.class)
			.satisfies((failure) -> {
				String message = failure.getMessage();
				System.out.println("mvc alloc failure: " + message);
				assertThat(message)
					.startsWith("Expected http get /allocate allocated per request to be at most 8.0 MiB")
					.contains("allocation samples of 64.0 KiB over 1 request(s)")
					.contains("Top self-time frames (alloc):")
					.contains("RecognisableWork.recognisablyAllocatingMethod");
				assertGraphWritten(message, "recognisablyAllocatingMethod");
			});
	}

	@Test
	void tooFewSamplesAreRefusedAndRepetitionsDecide() throws Exception {
		this.mvc.perform(get("/burn?cpuMillis=3")).andExpect(status().isOk());
		RequestProfile shortRequest = ofLastRequest();
		assertThatThrownBy(
				() -> assertThatProfile(shortRequest).cpuShareUnder("recognisablyBurningMethod").isAtLeast(0.5))
			.isInstanceOf(InconclusiveProfileException.class)
			.satisfies((refusal) -> {
				System.out.println("mvc refusal: " + refusal.getMessage());
				Matcher count = Pattern.compile("^(\\d+) samples: too few to tell").matcher(refusal.getMessage());
				assertThat(count.find()).as(refusal.getMessage()).isTrue();
				assertThat(Integer.parseInt(count.group(1))).isLessThan(20);
				assertThat(refusal.getMessage()).contains("SpanProfileAssertions.repeat").contains("Flame graph: ");
			});
		// The same, refused in the other direction: too few samples neither pass nor
		// fail.
		assertThatThrownBy(
				() -> assertThatProfile(shortRequest).cpuShareUnder("recognisablyBurningMethod").isAtMost(0.1))
			.isInstanceOf(InconclusiveProfileException.class);

		RequestProfile repeated = repeat(10,
				() -> this.mvc.perform(get("/burn?cpuMillis=20")).andExpect(status().isOk()));
		assertThat(repeated.requestCount()).isEqualTo(10);
		assertThatProfile(repeated).cpuShareUnder("recognisablyBurningMethod").isAtLeast(0.5);

		this.mvc.perform(get("/allocate?kilobytes=64")).andExpect(status().isOk());
		assertThatThrownBy(() -> assertThatProfile(ofLastRequest()).allocatedBytes().isAtMost(256 * 1024))
			.isInstanceOf(InconclusiveProfileException.class)
			.hasMessageContaining("allocation samples of 64.0 KiB: too few to tell whether http get /allocate");
	}

	@Test
	void absentFramesPassAndPresentOnesFail() throws Exception {
		this.mvc.perform(get("/burn?cpuMillis=100")).andExpect(status().isOk());
		RequestProfile profile = ofLastRequest();
		assertThatProfile(profile).hasNoFrameMatching("recognisablyAllocatingMethod");
		assertThatThrownBy(() -> assertThatProfile(profile).hasNoFrameMatching("recognisablyBurning\\w+"))
			.isInstanceOf(AssertionError.class)
			.hasMessageStartingWith(
					"Expected no frame matching /recognisablyBurning\\w+/ in the profile of http get " + "/burn, but ");
	}

	@Test
	void waitsOnAPeerAreMeasured() throws Exception {
		try (RecognisableWork.SlowPeer peer = new RecognisableWork.SlowPeer(100)) {
			WorkMvcApplication.WorkController.peer = peer;
			this.mvc.perform(get("/peer")).andExpect(status().isOk());
			RequestProfile profile = ofLastRequest();
			String port = ":" + peer.port();
			assertThatProfile(profile).waitsOn(port)
				.isPositive()
				.isAtLeast(Duration.ofMillis(50))
				.isAtMost(Duration.ofSeconds(2));
			assertThatThrownBy(() -> assertThatProfile(profile).waitsOn(port).isAtMost(Duration.ofMillis(10)))
				.isInstanceOf(AssertionError.class)
				.hasMessageContaining("to wait on " + port + " at most 10.0 ms per request, but it waited");
		}
	}

	@Test
	void aRequestsProfileIsReadRightAfterItEndsAndItsWaitsWhenAsked() throws Exception {
		long fastest = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			this.mvc.perform(get("/burn?cpuMillis=20")).andExpect(status().isOk());
			long start = System.nanoTime();
			RequestProfile profile = ofLastRequest();
			long took = System.nanoTime() - start;
			fastest = Math.min(fastest, took);
			System.out.println("mvc ofLastRequest took " + took / 1_000_000 + " ms");
			assertThat(profile.samplesOf(SampleKind.CPU).totalSamples()).isPositive();
		}
		// One collection after the request: the cpu samples need no more. Flight
		// Recorder's stream of waits delivers a second or two later (what this used to
		// wait for: 0.9 to 2.5 s).
		assertThat(Duration.ofNanos(fastest)).isLessThan(Duration.ofMillis(500));

		try (RecognisableWork.SlowPeer peer = new RecognisableWork.SlowPeer(100)) {
			WorkMvcApplication.WorkController.peer = peer;
			this.mvc.perform(get("/peer")).andExpect(status().isOk());
			RequestProfile profile = ofLastRequest();
			// The waits are awaited when first read: the 100 ms wait is there.
			assertThatProfile(profile).waitsOn(":" + peer.port()).isAtLeast(Duration.ofMillis(50));
		}
	}

	@Test
	void metricsAreNotExportedOverOtlpFromAProfiledTest(ApplicationContext context, CapturedOutput output) {
		// A push registry publishes when closed: an OTLP one, with no receiver here,
		// logs that it failed.
		for (PushMeterRegistry registry : context.getBeansOfType(PushMeterRegistry.class).values()) {
			registry.close();
		}
		assertThat(output).doesNotContain("Failed to publish metrics to OTLP receiver");
		assertThat(context.getBeansOfType(MeterRegistry.class).values())
			.noneMatch((registry) -> registry.getClass().getSimpleName().contains("Otlp"));
	}

	private static void assertGraphWritten(String message, String frame) {
		Matcher graph = GRAPH.matcher(message);
		assertThat(graph.find()).as(message).isTrue();
		Path html = Path.of(graph.group(1));
		assertThat(html).exists().isAbsolute();
		assertThat(html.toString()).contains("target/spanprofile/" + MvcProfileAssertionsTests.class.getName());
		try {
			assertThat(Files.readString(html)).contains(frame).contains("<html");
			Path collapsed = Path.of(html.toString().replaceAll("\\.html$", ".collapsed"));
			assertThat(Files.readString(collapsed)).contains(frame);
			System.out.println("mvc collapsed: " + Files.size(collapsed) + " bytes, " + collapsed.getFileName());
			assertThat(Files.readAllLines(collapsed)).isNotEmpty()
				.allSatisfy((line) -> assertThat(line).doesNotContain("org.junit")
					.doesNotContain("surefire")
					.doesNotContain("MockMvc.perform"));
		}
		catch (java.io.IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
