package dev.spanprofile.actuate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.otlp.OtlpProfilesExporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An OTLP receiver that hangs: requests time out after 3 s, the application keeps serving
 * at its usual pace, and the requests waiting for the receiver never exceed the queue's
 * capacity (the oldest are dropped).
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.application.name=burn-service", "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile", "spanprofile.dump-interval=100ms",
				"spanprofile.otlp.enabled=true", "spanprofile.otlp.export-interval=100ms",
				"spanprofile.otlp.timeout=3s", "spanprofile.otlp.max-tries=1", "spanprofile.otlp.queue-capacity=2",
				"management.otlp.metrics.export.enabled=false",
				"management.opentelemetry.tracing.export.otlp.endpoint=http://127.0.0.1:9/v1/traces" })
class OtlpProfilesOutageWebTests {

	private static final OtlpReceiver receiver = start();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Autowired
	OtlpProfilesExporter exporter;

	@DynamicPropertySource
	static void otlp(DynamicPropertyRegistry registry) {
		registry.add("spanprofile.otlp.endpoint", receiver::endpoint);
	}

	@AfterAll
	static void stopReceiver() {
		receiver.close();
	}

	@Test
	void theApplicationKeepsServingAndTheQueueStaysBounded() throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		// The first request initialises Spring MVC: not what is measured.
		assertThat(endpoint.get("/burn?cpuMillis=20", "text/plain").body()).isEqualTo("burnt");
		int maxQueued = 0;
		long slowest = 0;
		int requests = 0;
		long deadline = System.nanoTime() + Duration.ofSeconds(4).toNanos();
		// Until the first upload has timed out too: profiles complete (and are exported)
		// one Flight Recorder flush after their request, the waits' delivery, so the
		// hanging upload starts a second or two into the run.
		while (System.nanoTime() < deadline
				|| (this.exporter.uploads().dropped() == 0 || !this.exporter.uploads().inOutage()) && requests < 400) {
			long started = System.nanoTime();
			assertThat(endpoint.get("/burn?cpuMillis=20", "text/plain").body()).isEqualTo("burnt");
			slowest = Math.max(slowest, System.nanoTime() - started);
			requests++;
			maxQueued = Math.max(maxQueued, this.exporter.uploads().queued());
		}
		System.out.printf("otlp outage: %d app requests, slowest %.0f ms, at most %d queued, %d dropped, %d failed%n",
				requests, slowest / 1e6, maxQueued, this.exporter.uploads().dropped(),
				this.exporter.uploads().failed());
		assertThat(maxQueued).isBetween(1, 2);
		assertThat(this.exporter.uploads().dropped()).isPositive();
		assertThat(this.exporter.uploads().inOutage()).isTrue();
		assertThat(this.exporter.uploads().uploaded()).isZero();
		// A request held up by the hanging receiver would wait for its 3 s timeout; half
		// of it leaves room for a busy machine's scheduling and garbage collection.
		assertThat(slowest).isLessThan(Duration.ofMillis(1500).toNanos());
	}

	private static OtlpReceiver start() {
		try {
			OtlpReceiver hanging = new OtlpReceiver();
			hanging.hang();
			return hanging;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
