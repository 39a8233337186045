package dev.spanprofile.actuate.metrics;

import dev.spanprofile.otlp.OtlpProfilesExporter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * What became of the profiles exported over OTLP, so that a receiver that is away or too
 * slow shows on a dashboard and not only in one log line: requests built and accepted,
 * what was dropped and why, and what waits.
 */
public class OtlpExportMetrics implements MeterBinder {

	private final OtlpProfilesExporter exporter;

	public OtlpExportMetrics(OtlpProfilesExporter exporter) {
		this.exporter = exporter;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder("spanprofile.otlp.requests", this.exporter, OtlpProfilesExporter::requests)
			.baseUnit("requests")
			.description("OTLP profiles requests built, one per export interval with samples")
			.register(registry);
		FunctionCounter.builder("spanprofile.otlp.request.bytes", this.exporter, OtlpProfilesExporter::requestBytes)
			.baseUnit(BaseUnits.BYTES)
			.description("Bytes of the OTLP profiles requests built, before compression")
			.register(registry);
		FunctionCounter.builder("spanprofile.otlp.uploaded", this.exporter, (e) -> e.uploads().uploaded())
			.baseUnit("requests")
			.description("OTLP profiles requests the receiver accepted")
			.register(registry);
		dropped(registry, "queue-full", "Requests dropped unsent because the upload queue was full");
		dropped(registry, "failed", "Requests given up after every upload attempt failed");
		dropped(registry, "not-built", "Exports whose request could not be built");
		FunctionCounter.builder("spanprofile.otlp.spans.dropped", this.exporter, OtlpProfilesExporter::droppedSpans)
			.baseUnit("spans")
			.description("Spans whose samples were dropped before an export because too many waited for it")
			.register(registry);
		Gauge.builder("spanprofile.otlp.queued", this.exporter, (e) -> e.uploads().queued())
			.baseUnit("requests")
			.description("OTLP profiles requests waiting to be uploaded")
			.register(registry);
	}

	private void dropped(MeterRegistry registry, String reason, String description) {
		FunctionCounter.builder("spanprofile.otlp.dropped", this.exporter, (e) -> switch (reason) {
			case "queue-full" -> e.uploads().dropped();
			case "failed" -> e.uploads().failed();
			default -> e.failedExports();
		}).tag("reason", reason).baseUnit("requests").description(description).register(registry);
	}

}
