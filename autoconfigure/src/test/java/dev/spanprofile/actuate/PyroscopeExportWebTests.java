package dev.spanprofile.actuate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.pyroscope.IngestReceiver;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot application exporting to Pyroscope: the request's samples reach the
 * (loopback) server labelled with its span id and final name, and the actuator endpoint
 * shows the same span with the same samples, CPU and allocation alike.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = {
				// Its sample counts are bounded for 10 ms, not the default 20 ms.
				"spanprofile.interval=10ms", "spring.application.name=burn-service",
				"management.tracing.sampling.probability=1.0", "management.endpoints.web.exposure.include=spanprofile",
				"spanprofile.dump-interval=200ms", "spanprofile.pyroscope.enabled=true",
				"spanprofile.pyroscope.upload-interval=1s", "spanprofile.pyroscope.labels.region=test-1",
				"management.otlp.metrics.export.enabled=false", "spanprofile.event=cpu,alloc",
				"spanprofile.alloc-interval=32KB" })
class PyroscopeExportWebTests {

	private static final IngestReceiver receiver = start();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void pyroscope(DynamicPropertyRegistry registry) {
		registry.add("spanprofile.pyroscope.server-address", receiver::address);
	}

	@AfterAll
	static void stopReceiver() {
		receiver.close();
	}

	@Test
	void theLocalViewShowsTheSpansThatAreExported() throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		assertThat(endpoint.get("/burn?cpuMillis=400", "text/plain").body()).isEqualTo("burnt");
		Map<String, Object> status = endpoint.json("/actuator/spanprofile");
		assertThat(status).containsEntry("engine", "pyroscope").containsEntry("running", true);

		Map<String, Object> span = endpoint.awaitCompleteSpan("http get /burn");
		String spanId = (String) span.get("spanId");
		String local = endpoint.get("/actuator/spanprofile/" + spanId, "text/plain").body();
		long localHot = EndpointClient.samplesWith(local, "recognisablyHotMethod");

		long labelId = Long.parseUnsignedLong(spanId, 16);
		List<IngestReceiver.Sample> labelled = new ArrayList<>();
		Map<Long, String> strings = new HashMap<>();
		// The local view may parse a profile before its upload has finished.
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		int seen = 0;
		while (labelled.size() < localHot && System.nanoTime() < deadline) {
			List<IngestReceiver.Upload> accepted = receiver.accepted();
			for (IngestReceiver.Upload upload : accepted.subList(seen, accepted.size())) {
				assertThat(upload.query().get("name")).startsWith("burn-service{").contains("region=test-1");
				strings.putAll(upload.labels().getStringsMap());
				upload.samples().stream().filter((s) -> s.spanId() == labelId).forEach(labelled::add);
			}
			seen = accepted.size();
			Thread.sleep(200);
		}
		long uploadedHot = labelled.stream().filter((s) -> s.in("recognisablyHotMethod")).count();
		System.out.printf(
				"pyroscope export (Spring): span %s, %d samples in the hot method locally, %d uploaded with "
						+ "its span id, span_name %s%n",
				spanId, localHot, uploadedHot, labelled.isEmpty() ? null : strings.get(labelled.get(0).spanName()));
		assertThat(localHot).isGreaterThanOrEqualTo(20);
		assertThat((double) uploadedHot).isBetween(localHot * 0.95, localHot * 1.05 + 1);
		// Micrometer names a server span only when it ends: the upload carries that final
		// name, not a placeholder.
		assertThat(labelled).allSatisfy((s) -> assertThat(strings.get(s.spanName())).isEqualTo("http get /burn"));
	}

	@Test
	void allocationsAreShownLocallyAndUploadedWithTheSpanLabel() throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		// Spread over two seconds: the agent's recording pauses at each cut (every upload
		// interval); all at once, 64 MiB takes tens of milliseconds and a cut landing on
		// it lost half the bytes on a busy machine.
		assertThat(endpoint.get("/allocate?megabytes=64&overMillis=2000", "text/plain").body()).isEqualTo("allocated");
		Map<String, Object> span = endpoint.awaitCompleteSpan("http get /allocate");
		String spanId = (String) span.get("spanId");
		String local = endpoint.get("/actuator/spanprofile/" + spanId + "?event=alloc", "text/plain").body();
		long localInMethod = EndpointClient.samplesWith(local, "recognisablyAllocatingMethod");
		long localTotal = EndpointClient.samplesWith(local, "");
		assertThat(endpoint.json("/actuator/spanprofile/" + spanId + "?event=alloc"))
			.containsEntry("flameGraphEvent", "alloc")
			.containsEntry("flameGraphUnit", "bytes");

		long labelId = Long.parseUnsignedLong(spanId, 16);
		List<IngestReceiver.Event> labelled = new ArrayList<>();
		Map<Long, String> strings = new HashMap<>();
		// The local view may parse a profile before its upload has finished.
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		int seen = 0;
		while (weight(labelled) < localTotal && System.nanoTime() < deadline) {
			List<IngestReceiver.Upload> accepted = receiver.accepted();
			for (IngestReceiver.Upload upload : accepted.subList(seen, accepted.size())) {
				strings.putAll(upload.labels().getStringsMap());
				upload.events("jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB")
					.stream()
					.filter((e) -> e.spanId() == labelId)
					.forEach(labelled::add);
			}
			seen = accepted.size();
			Thread.sleep(200);
		}
		long uploadedInMethod = weight(labelled.stream().filter((e) -> e.in("recognisablyAllocatingMethod")).toList());
		System.out.printf("pyroscope export (Spring): span %s, %d of %d bytes in the allocating method locally, %d "
				+ "uploaded with its span id%n", spanId, localInMethod, localTotal, uploadedInMethod);
		// 64 MiB at 32 KiB: about 2,000 samples, less what the agent's two or three cuts
		// of its recording miss.
		assertThat(localTotal).isBetween(1000L * 32 * 1024, 80L * 1024 * 1024);
		assertThat(localInMethod).isGreaterThanOrEqualTo((long) Math.ceil(0.9 * localTotal));
		assertThat((double) uploadedInMethod).isBetween(localInMethod * 0.95, localInMethod * 1.05);
		assertThat(labelled).allSatisfy((e) -> assertThat(strings.get(e.spanName())).isEqualTo("http get /allocate"));
	}

	private static long weight(List<IngestReceiver.Event> events) {
		return events.stream().mapToLong(IngestReceiver.Event::weight).sum();
	}

	@Test
	void exportMetricsCountWhatTheServerAccepted() {
		// Uploads run every second whether or not requests come: the counter follows the
		// server's count.
		Awaitility.await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
			double uploaded = this.meters.get("spanprofile.export.uploaded").functionCounter().count();
			assertThat(uploaded).isGreaterThanOrEqualTo(2).isEqualTo(receiver.accepted().size());
		});
		for (String reason : new String[] { "queue-full", "failed", "local" }) {
			assertThat(this.meters.get("spanprofile.export.dropped").tag("reason", reason).functionCounter().count())
				.as(reason)
				.isZero();
		}
	}

	private static IngestReceiver start() {
		try {
			return new IngestReceiver();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
