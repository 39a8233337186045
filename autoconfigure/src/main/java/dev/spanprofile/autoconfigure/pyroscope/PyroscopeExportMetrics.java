package dev.spanprofile.autoconfigure.pyroscope;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * What became of the profiles exported to Pyroscope: {@code spanprofile.export.uploaded},
 * and {@code spanprofile.export.dropped} by reason: {@code queue-full} (dropped unsent
 * while the server was slow or down), {@code failed} (given up after every attempt) and
 * {@code local} (missed by the local flame graphs because their collector fell behind).
 */
public class PyroscopeExportMetrics implements MeterBinder {

	private final PyroscopeExportStats stats;

	public PyroscopeExportMetrics(PyroscopeExportStats stats) {
		this.stats = stats;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder("spanprofile.export.uploaded", this.stats, (s) -> s.current().uploaded())
			.baseUnit("profiles")
			.description("Profiles the Pyroscope server accepted")
			.register(registry);
		dropped(registry, "queue-full", "Profiles dropped unsent because the upload queue was full");
		dropped(registry, "failed", "Profiles given up after every upload attempt failed");
		dropped(registry, "local", "Profiles the local flame graphs missed because their collector fell behind");
		Gauge.builder("spanprofile.export.queued", this.stats, (s) -> s.current().queued())
			.baseUnit("profiles")
			.description("Profiles waiting to be uploaded")
			.register(registry);
	}

	private void dropped(MeterRegistry registry, String reason, String description) {
		FunctionCounter.builder("spanprofile.export.dropped", this.stats, (s) -> switch (reason) {
			case "queue-full" -> s.current().dropped();
			case "failed" -> s.current().failed();
			default -> s.current().droppedLocally();
		}).tag("reason", reason).baseUnit("profiles").description(description).register(registry);
	}

}
