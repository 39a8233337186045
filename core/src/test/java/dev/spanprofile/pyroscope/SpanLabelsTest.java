package dev.spanprofile.pyroscope;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SpanLabelsTest {

	private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

	@Test
	void rootOnlyLabelsChildrenWithTheirLocalRoot() {
		SpanLabels labels = new SpanLabels(true, 10);
		labels.startExporting();
		SpanContext remoteParent = SpanContext.createFromRemoteParent(TRACE, "00f067aa0ba902b7",
				TraceFlags.getSampled(), TraceState.getDefault());
		SpanContext root = span("b7ad6b7169203331");
		SpanContext child = span("c7ad6b7169203332");
		assertThat(labels.spanStarted(root, remoteParent, "<unspecified span name>")).isTrue();
		assertThat(labels.spanStarted(child, root, "db query")).isFalse();
		assertThat(labels.find(child.getSpanId())).isSameAs(labels.find(root.getSpanId()));
		assertThat(labels.find(root.getSpanId()).spanId).isEqualTo(0xb7ad6b7169203331L);
		assertThat(labels.find(root.getSpanId()).traceIdHigh).isEqualTo(0x0af7651916cd43ddL);
		assertThat(labels.find(root.getSpanId()).traceIdLow).isEqualTo(0x8448eb211c80319cL);

		// In progress under Micrometer the root has no real name yet: no span_name rather
		// than a placeholder.
		Map<Long, String> strings = new HashMap<>();
		labels.drainNames(strings);
		assertThat(strings).isEmpty();
		labels.spanEnded(child.getSpanId(), "db query");
		labels.spanEnded(root.getSpanId(), "http get /orders/{id}");
		labels.drainNames(strings);
		assertThat(strings).containsOnly(Map.entry(SpanLabels.FIRST_NAME_ID, "http get /orders/{id}"));
		assertThat(labels.tracked()).isZero();
		assertThat(labels.pendingNames()).as("ended spans are forgotten once uploaded").isZero();
	}

	@Test
	void allSpansModeLabelsEachSpan() {
		SpanLabels labels = new SpanLabels(false, 10);
		labels.startExporting();
		SpanContext root = span("b7ad6b7169203331");
		SpanContext child = span("c7ad6b7169203332");
		assertThat(labels.spanStarted(root, SpanContext.getInvalid(), "root")).isTrue();
		assertThat(labels.spanStarted(child, root, "child")).isTrue();
		assertThat(labels.find(child.getSpanId()).spanId).isEqualTo(0xc7ad6b7169203332L);
	}

	@Test
	void spanNamesAreBoundedAndSpansInProgressToo() {
		SpanLabels labels = new SpanLabels(false, 2, 3);
		labels.startExporting();
		for (int i = 0; i < 5; i++) {
			SpanContext span = span(String.format("%016x", i + 1));
			labels.spanStarted(span, SpanContext.getInvalid(), "name-" + i);
		}
		assertThat(labels.tracked()).isEqualTo(3);
		assertThat(labels.overflowed()).isEqualTo(2);
		Map<Long, String> strings = new HashMap<>();
		labels.drainNames(strings);
		assertThat(strings.values()).containsExactlyInAnyOrder("name-0", "name-1", SpanNameLimit.OTHER);
	}

	@Test
	void nothingIsLabelledOrKeptWhileNotExporting() {
		SpanLabels labels = new SpanLabels(true, 10);
		SpanContext root = span("b7ad6b7169203331");
		assertThat(labels.spanStarted(root, SpanContext.getInvalid(), "before the start")).isFalse();
		assertThat(labels.pendingNames()).isZero();
		labels.startExporting();
		assertThat(labels.spanStarted(root, SpanContext.getInvalid(), "in progress at the stop")).isTrue();
		assertThat(labels.spanStarted(span("c7ad6b7169203332"), root, "child")).isFalse();
		assertThat(labels.tracked()).isEqualTo(2);
		assertThat(labels.pendingNames()).isEqualTo(1);
		labels.stopExporting();
		assertThat(labels.tracked()).isZero();
		assertThat(labels.pendingNames()).isZero();
		labels.spanEnded(root.getSpanId(), "ended after the stop");
		assertThat(labels.find(root.getSpanId())).isNull();
	}

	@Test
	void settingsNeverShowSecrets() {
		PyroscopeSettings settings = new PyroscopeSettings("https://user:s3cret-url@pyroscope.example", "app", null,
				"user", "s3cret-pass", "s3cret-token", Map.of(), Duration.ofSeconds(10), 1, 8, 8,
				Duration.ofSeconds(10), true, true, 100, true, 1.0);
		assertThat(settings.toString()).doesNotContain("s3cret");
		assertThat(settings.redactedServerAddress()).isEqualTo("https://***@pyroscope.example");
		AgentLogger logger = new AgentLogger(settings.secrets());
		assertThat(logger
			.redact("Upload attempt 1 to https://user:s3cret-url@pyroscope.example/ingest token s3cret-token"))
			.doesNotContain("s3cret");
	}

	@Test
	void settingsRejectBadInputClearly() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new PyroscopeSettings("pyroscope:4040", "app", null, null, null, null, Map.of(),
					Duration.ofSeconds(10), 1, 8, 8, Duration.ofSeconds(10), true, true, 100, true, 1.0))
			.withMessageContaining("server-address");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new PyroscopeSettings("http://pyroscope:4040", "app", null, null, null, null, Map.of(),
					Duration.ofSeconds(10), 1, 8, 8, Duration.ofSeconds(10), true, true, 100, true, 1.5))
			.withMessageContaining("sample-rate");
	}

	private static SpanContext span(String spanId) {
		return SpanContext.create(TRACE, spanId, TraceFlags.getSampled(), TraceState.getDefault());
	}

}
