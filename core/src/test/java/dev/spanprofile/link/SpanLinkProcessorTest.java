package dev.spanprofile.link;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SpanLinkProcessorTest {

	private final Exported exported = new Exported();

	@Test
	void exportedLocalRootsCarryTheirFlameGraphAddressAndChildrenDoNot() {
		try (SdkTracerProvider provider = provider("http://orders-7f9c:8080/actuator/spanprofile")) {
			Tracer tracer = provider.get("test");
			Span root = tracer.spanBuilder("GET /orders").startSpan();
			try (Scope scope = root.makeCurrent()) {
				tracer.spanBuilder("SELECT orders").startSpan().end();
			}
			root.end();
			// A request arriving from another service: its entry span here is a local
			// root too.
			SpanContext remote = SpanContext.createFromRemoteParent("0af7651916cd43dd8448eb211c80319c",
					"b7ad6b7169203331", TraceFlags.getSampled(), TraceState.getDefault());
			Span entry = tracer.spanBuilder("POST /pay").setParent(Context.root().with(Span.wrap(remote))).startSpan();
			entry.end();
		}
		SpanData rootData = this.exported.named("GET /orders");
		assertThat(rootData.getAttributes().get(SpanLinkProcessor.URL))
			.isEqualTo("http://orders-7f9c:8080/actuator/spanprofile/" + rootData.getSpanId());
		assertThat(this.exported.named("SELECT orders").getAttributes().get(SpanLinkProcessor.URL)).isNull();
		SpanData entryData = this.exported.named("POST /pay");
		assertThat(entryData.getAttributes().get(SpanLinkProcessor.URL))
			.isEqualTo("http://orders-7f9c:8080/actuator/spanprofile/" + entryData.getSpanId());
	}

	@Test
	void aTrailingSlashIsNotDoubled() {
		try (SdkTracerProvider provider = provider("https://shop.example/actuator/spanprofile/")) {
			provider.get("test").spanBuilder("GET /").startSpan().end();
		}
		SpanData data = this.exported.named("GET /");
		assertThat(data.getAttributes().get(SpanLinkProcessor.URL))
			.isEqualTo("https://shop.example/actuator/spanprofile/" + data.getSpanId());
	}

	@Test
	void anEmptyBaseIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new SpanLinkProcessor(" "));
	}

	private SdkTracerProvider provider(String baseUrl) {
		return SdkTracerProvider.builder()
			.addSpanProcessor(new SpanLinkProcessor(baseUrl))
			.addSpanProcessor(SimpleSpanProcessor.create(this.exported))
			.build();
	}

	/** What an exporter receives, kept in memory. */
	private static final class Exported implements SpanExporter {

		private final List<SpanData> spans = new ArrayList<>();

		@Override
		public synchronized CompletableResultCode export(Collection<SpanData> batch) {
			this.spans.addAll(batch);
			return CompletableResultCode.ofSuccess();
		}

		synchronized SpanData named(String name) {
			return this.spans.stream().filter((span) -> span.getName().equals(name)).findFirst().orElseThrow();
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
