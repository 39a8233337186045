package dev.spanprofile.actuate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.otlp.OtlpProfilesExporter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.Link;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;
import io.opentelemetry.proto.profiles.v1development.ScopeProfiles;
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
 * A Spring Boot application exporting OTLP profiles to a loopback receiver that answers
 * its first request 503: every request decodes, its samples link to spans the actuator
 * endpoint lists with the same samples, the resource names the service, and the refused
 * batch arrives once.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = {
				// Its sample counts are bounded for 10 ms, not the default 20 ms.
				"spanprofile.interval=10ms", "spring.application.name=burn-service",
				"management.tracing.sampling.probability=1.0", "management.endpoints.web.exposure.include=spanprofile",
				"spanprofile.dump-interval=200ms", "spanprofile.otlp.enabled=true",
				"spanprofile.otlp.export-interval=500ms", "spanprofile.otlp.headers.Authorization=Bearer s3cret",
				"management.otlp.metrics.export.enabled=false",
				"management.opentelemetry.tracing.export.otlp.endpoint=http://127.0.0.1:9/v1/traces" })
class OtlpProfilesExportWebTests {

	private static final OtlpReceiver receiver = start();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Autowired
	OtlpProfilesExporter exporter;

	@Autowired
	MeterRegistry registry;

	@DynamicPropertySource
	static void otlp(DynamicPropertyRegistry registry) {
		registry.add("spanprofile.otlp.endpoint", receiver::endpoint);
	}

	@AfterAll
	static void stopReceiver() {
		receiver.close();
	}

	@Test
	void exportedSamplesLinkToTheSpansTheLocalEndpointLists() throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		assertThat(endpoint.get("/burn?cpuMillis=400", "text/plain").body()).isEqualTo("burnt");
		Map<String, Object> span = endpoint.awaitCompleteSpan("http get /burn");
		String spanId = (String) span.get("spanId");
		String traceId = (String) span.get("traceId");
		long localHot = EndpointClient.samplesWith(endpoint.get("/actuator/spanprofile/" + spanId, "text/plain").body(),
				"recognisablyHotMethod");

		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !accepted(spanId).isEmpty());
		List<OtlpReceiver.Received> carrying = accepted(spanId);
		assertThat(carrying).as("the span's samples arrive in exactly one accepted request").hasSize(1);
		ExportProfilesServiceRequest request = carrying.get(0).request();
		ProfilesDictionary dictionary = request.getDictionary();
		long intervalNanos = this.profiler.settings().sampler().interval().toNanos();
		long exportedHot = 0;
		for (ScopeProfiles scope : request.getResourceProfiles(0).getScopeProfilesList()) {
			for (Profile profile : scope.getProfilesList()) {
				if (!"cpu".equals(dictionary.getStringTable(profile.getSampleType().getTypeStrindex()))) {
					continue;
				}
				assertThat(dictionary.getStringTable(profile.getSampleType().getUnitStrindex()))
					.isEqualTo("nanoseconds");
				assertThat(profile.getPeriod()).isEqualTo(intervalNanos);
				for (Sample sample : profile.getSamplesList()) {
					Link link = dictionary.getLinkTable(sample.getLinkIndex());
					if (hex(link.getSpanId().toByteArray()).equals(spanId) && leafFirst(dictionary, sample).stream()
						.anyMatch((f) -> f.contains("recognisablyHotMethod"))) {
						assertThat(hex(link.getTraceId().toByteArray())).isEqualTo(traceId);
						exportedHot += sample.getValues(0) / intervalNanos;
					}
				}
			}
		}
		System.out.printf("otlp export (Spring): span %s, %d hot samples locally, %d exported linked to it%n", spanId,
				localHot, exportedHot);
		assertThat(localHot).isGreaterThanOrEqualTo(20);
		// Both read the same complete root: the counts agree exactly.
		assertThat(exportedHot).isEqualTo(localHot);
		assertThat(serviceName(request)).isEqualTo("burn-service");
	}

	@Test
	void everyRequestDecodesAndEveryLinkedSpanIsListedLocally() throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		for (int i = 0; i < 3; i++) {
			endpoint.get("/burn?cpuMillis=100", "text/plain");
		}
		endpoint.awaitCompleteSpan("http get /burn");
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> receiver.received().size() >= 3);
		assertThat(receiver.undecodable()).isEmpty();
		Set<String> listed = endpoint.spanIds();
		Set<String> linked = new HashSet<>();
		for (OtlpReceiver.Received received : receiver.received()) {
			assertThat(received.contentType()).isEqualTo("application/x-protobuf");
			assertThat(received.contentEncoding()).isEqualTo("gzip");
			assertThat(received.authorization()).isEqualTo("Bearer s3cret");
			assertThat(serviceName(received.request())).isEqualTo("burn-service");
			linked.addAll(linkedSpanIds(received.request()));
		}
		assertThat(linked).isNotEmpty();
		assertThat(listed).containsAll(linked);
	}

	@Test
	void theBatchRefusedWith503ArrivesOnceOnRetry() {
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> receiver.received().size() >= 2);
		List<OtlpReceiver.Received> received = receiver.received();
		assertThat(received.get(0).status()).isEqualTo(503);
		assertThat(received.get(1).status()).isEqualTo(200);
		assertThat(received.get(1).sameBodyAs(received.get(0))).isTrue();
		// No span's samples are accepted twice: a retried batch is not also sent with the
		// next one.
		List<String> acceptedLinks = new ArrayList<>();
		for (OtlpReceiver.Received request : received) {
			if (request.status() == 200) {
				acceptedLinks.addAll(linkedSpanIds(request.request()));
			}
		}
		assertThat(acceptedLinks).doesNotHaveDuplicates();
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.exporter.uploads().uploaded()).isGreaterThanOrEqualTo(1));
		assertThat(this.exporter.uploads().failed()).isZero();
		// The meters read the exporter's own counters (exports go on meanwhile: read
		// between two reads of them).
		long uploadedBefore = this.exporter.uploads().uploaded();
		long requestsBefore = this.exporter.requests();
		double uploaded = this.registry.get("spanprofile.otlp.uploaded").functionCounter().count();
		double requests = this.registry.get("spanprofile.otlp.requests").functionCounter().count();
		assertThat(uploaded).isBetween((double) uploadedBefore, (double) this.exporter.uploads().uploaded())
			.isPositive();
		assertThat(requests).isBetween((double) requestsBefore, (double) this.exporter.requests());
		System.out.printf(
				"otlp export (Spring): %d requests, %.0f bytes each (uncompressed), %.2f ms CPU to build " + "each%n",
				this.exporter.requests(), (double) this.exporter.requestBytes() / this.exporter.requests(),
				this.exporter.buildCpuNanos() / 1e6 / this.exporter.requests());
	}

	private static List<OtlpReceiver.Received> accepted(String spanId) {
		return receiver.received()
			.stream()
			.filter((r) -> r.status() == 200 && linkedSpanIds(r.request()).contains(spanId))
			.toList();
	}

	/** Distinct span ids this request's samples link to. */
	private static Set<String> linkedSpanIds(ExportProfilesServiceRequest request) {
		Set<String> ids = new HashSet<>();
		ProfilesDictionary dictionary = request.getDictionary();
		for (ScopeProfiles scope : request.getResourceProfiles(0).getScopeProfilesList()) {
			for (Profile profile : scope.getProfilesList()) {
				for (Sample sample : profile.getSamplesList()) {
					assertThat(sample.getLinkIndex()).as("every sample links to a span").isPositive();
					ids.add(hex(dictionary.getLinkTable(sample.getLinkIndex()).getSpanId().toByteArray()));
				}
			}
		}
		return ids;
	}

	private static List<String> leafFirst(ProfilesDictionary dictionary, Sample sample) {
		List<String> names = new ArrayList<>();
		for (int location : dictionary.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
			int function = dictionary.getLocationTable(location).getLines(0).getFunctionIndex();
			names.add(dictionary.getStringTable(dictionary.getFunctionTable(function).getNameStrindex()));
		}
		return names;
	}

	private static String serviceName(ExportProfilesServiceRequest request) {
		return request.getResourceProfiles(0)
			.getResource()
			.getAttributesList()
			.stream()
			.filter((attribute) -> attribute.getKey().equals("service.name"))
			.map(KeyValue::getValue)
			.map((value) -> value.getStringValue())
			.findFirst()
			.orElse(null);
	}

	private static String hex(byte[] bytes) {
		return HexFormat.of().formatHex(bytes);
	}

	private static OtlpReceiver start() {
		try {
			return new OtlpReceiver(503);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
