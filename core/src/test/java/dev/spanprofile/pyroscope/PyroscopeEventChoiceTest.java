package dev.spanprofile.pyroscope;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.StoreSettings;
import io.pyroscope.javaagent.PyroscopeAgent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent runs one timer event and adds allocation and lock sampling to it; other
 * combinations are refused at start with a reason, before the agent is touched.
 */
class PyroscopeEventChoiceTest {

	@ParameterizedTest
	@CsvSource(delimiter = '|', value = { "cpu,wall      | samples one timer event at a time",
			"itimer,wall,alloc | samples one timer event at a time",
			"alloc         | has none; add one of cpu, itimer, ctimer or wall, e.g. spanprofile.event=cpu,alloc",
			"lock          | has none; add one of cpu, itimer, ctimer or wall, e.g. spanprofile.event=cpu,lock",
			"alloc,lock    | has none; add one of cpu, itimer, ctimer or wall, e.g. spanprofile.event=cpu,alloc,lock" })
	void refusesWhatTheAgentCannotSample(String events, String reason) {
		PyroscopeSettings pyroscope = new PyroscopeSettings("http://127.0.0.1:9", "checkout-service", null, null, null,
				null, Map.of(), Duration.ofSeconds(1), 1, 1, 1, Duration.ofSeconds(1), true, true, 100, true, 1.0);
		SamplerSettings sampler = new SamplerSettings(SamplerSettings.parseEvents(List.of(events.split(","))),
				Duration.ofMillis(10), Path.of(System.getProperty("java.io.tmpdir")), null, null);
		SpanLabels labels = new SpanLabels(true, pyroscope.maxSpanNames());
		try (SpanProfiler profiler = new SpanProfiler(
				new SpanProfilerSettings(sampler, StoreSettings.defaults(), Duration.ofMillis(200)),
				(frames) -> new PyroscopeEngine(pyroscope, labels, sampler, frames))) {
			assertThat(profiler.start()).isFalse();
			assertThat(profiler.status().problem()).contains(reason).contains("spanprofile.event=" + events.trim());
		}
		assertThat(PyroscopeAgent.isStarted()).isFalse();
	}

}
