package dev.spanprofile.actuate;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A native library that cannot load (simulated with a file that is no library): the
 * application starts, one WARN says why, and Flight Recorder profiles the spans instead.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile", "spanprofile.dump-interval=200ms",
				"spanprofile.native-library-path=${java.io.tmpdir}/spanprofile-test-not-a-library.so",
				"management.otlp.metrics.export.enabled=false" })
class EngineFallbackWebTests {

	static {
		try {
			java.nio.file.Files.writeString(
					java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "spanprofile-test-not-a-library.so"),
					"not an ELF file");
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Test
	void flightRecorderTakesOverAndSpansStillGetProfiles(CapturedOutput output) throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		Map<String, Object> status = endpoint.json("/actuator/spanprofile");
		assertThat(status).containsEntry("engine", "jfr").containsEntry("running", true);
		assertThat((String) status.get("note")).contains("async-profiler unavailable").contains("cannot be loaded");
		assertThat(
				output.getOut().lines().filter((line) -> line.contains("WARN") && line.contains("using jfr instead")))
			.hasSize(1);

		// jdk.ExecutionSample misses the burn loop's native clock reads and samples few
		// threads per period on a busy machine (one full build's run got 4 samples where
		// 49-57 are usual): what matters is that spans get their hot method, so a few
		// requests may be needed for one to show it clearly.
		long hot = 0;
		long all = 0;
		Set<Object> seen = new HashSet<>();
		for (int attempt = 0; attempt < 4 && (hot <= 5 || hot <= all / 2); attempt++) {
			assertThat(endpoint.get("/burn?cpuMillis=600", "text/plain").body()).isEqualTo("burnt");
			Map<String, Object> span = endpoint.awaitSpan("http get /burn",
					(candidate) -> Boolean.TRUE.equals(candidate.get("complete"))
							&& !seen.contains(candidate.get("spanId")));
			seen.add(span.get("spanId"));
			String collapsed = endpoint.get("/actuator/spanprofile/" + span.get("spanId"), "text/plain").body();
			hot = EndpointClient.samplesWith(collapsed, "recognisablyHotMethod");
			all = EndpointClient.samplesWith(collapsed, "");
			System.out.printf("fallback: %d samples in the hot method via %s%n", hot, status.get("event"));
		}
		assertThat(hot).isGreaterThan(5).isGreaterThan(all / 2);
	}

}
