package dev.spanprofile.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.link.SpanLinkProcessor;
import dev.spanprofile.store.SpanRecord;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Where people already look: on a real server, a slow request gets one log line naming
 * its hot method, fast ones none, at most max-per-minute lines; and the exported request
 * span carries the address of its flame graph.
 */
@SpringBootTest(classes = { OrdersApplication.class, SlowSpanLogWebTests.ExporterConfiguration.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false", "spanprofile.slow-span-log.threshold=2s",
				"spanprofile.slow-span-log.max-per-minute=2",
				"spanprofile.link.base-url=http://orders-7f9c:8080/actuator/spanprofile" })
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext
class SlowSpanLogWebTests {

	private static final Pattern LINE = Pattern
		.compile("spanprofile: slow request \"http get /orders\" took (\\d+) ms.*flame graph: /actuator/spanprofile/"
				+ "([0-9a-f]{16})");

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Autowired
	SdkTracerProvider tracerProvider;

	@Autowired
	Exporter exporter;

	@Test
	void slowRequestsAreLoggedWithTheirHotMethodFastOnesNotAndTheRateLimitHolds(CapturedOutput output)
			throws Exception {
		EndpointClient endpoint = new EndpointClient(this.port, this.profiler);
		for (int i = 0; i < 20; i++) {
			assertThat(endpoint.get("/orders?cpuMillis=1", "text/plain").statusCode()).isEqualTo(200);
		}
		// 300 ms of CPU in the pricing method, then a wait: slow by the clock whatever
		// the machine's load.
		assertThat(endpoint.get("/orders?cpuMillis=300&sleepMillis=2500", "text/plain").statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(20)).until(() -> lines(output).size() >= 1);
		String line = output.getAll()
			.lines()
			.filter((l) -> l.contains("spanprofile: slow request"))
			.reduce((first, last) -> last)
			.orElseThrow();
		assertThat(line).contains("INFO").contains("OrdersController.recognisablySlowPricing").contains("CPU ");

		// Three more slow requests at once: with at most two lines a minute, only one
		// more is written.
		List<CompletableFuture<?>> more = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			more.add(endpoint.getAsync("/orders?sleepMillis=2200"));
		}
		CompletableFuture.allOf(more.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(20)).until(() -> lines(output).size() >= 2);
		// Several more collection cycles: none of them may write a third line.
		for (int i = 0; i < 5; i++) {
			this.profiler.collectNow();
		}
		List<String[]> lines = lines(output);
		assertThat(lines).hasSize(2);

		// Every line is for a request over the threshold, and every stored request over
		// it that has a line is one.
		long threshold = Duration.ofSeconds(2).toNanos();
		for (String[] logged : lines) {
			SpanRecord record = this.profiler.store().find(logged[1]);
			assertThat(record).as("logged span %s stored", logged[1]).isNotNull();
			assertThat(record.durationNanos(0)).isGreaterThan(threshold);
		}
		List<SpanRecord> fast = this.profiler.store()
			.recent((r) -> r.name().equals("http get /orders") && r.durationNanos(0) <= threshold, 1000);
		assertThat(fast).hasSizeGreaterThanOrEqualTo(15);
		for (SpanRecord record : fast) {
			assertThat(output.getAll()).doesNotContain("/actuator/spanprofile/" + record.spanId());
		}

		// The exported request spans carry the address of their flame graph.
		this.tracerProvider.forceFlush().join(10, TimeUnit.SECONDS);
		SpanData exported = this.exporter.withId(lines.get(0)[1]);
		assertThat(exported.getAttributes().get(SpanLinkProcessor.URL))
			.isEqualTo("http://orders-7f9c:8080/actuator/spanprofile/" + lines.get(0)[1]);
	}

	/** Duration and span id of each slow-request line written so far. */
	private static List<String[]> lines(CapturedOutput output) {
		List<String[]> lines = new ArrayList<>();
		Matcher matcher = LINE.matcher(output.getAll());
		while (matcher.find()) {
			lines.add(new String[] { matcher.group(1), matcher.group(2) });
		}
		return lines;
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ExporterConfiguration {

		@Bean
		Exporter inMemorySpanExporter() {
			return new Exporter();
		}

	}

	/** What the application exports, kept in memory. */
	static class Exporter implements SpanExporter {

		private final List<SpanData> spans = new ArrayList<>();

		@Override
		public synchronized CompletableResultCode export(Collection<SpanData> batch) {
			this.spans.addAll(batch);
			return CompletableResultCode.ofSuccess();
		}

		synchronized SpanData withId(String spanId) {
			return this.spans.stream()
				.filter((span) -> span.getSpanId().equals(spanId))
				.findFirst()
				.orElseThrow(() -> new AssertionError("span " + spanId + " not exported among " + this.spans.size()));
		}

		@Override
		public CompletableResultCode flush() {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			return CompletableResultCode.ofSuccess();
		}

	}

}
