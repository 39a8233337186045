package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.handoff.AsyncWithoutContextApplication;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real MVC application whose own {@code @PropertySource} turns context propagation off
 * for Boot's task executor: its setting wins over the starter's default, its
 * {@code @Async} work runs without the request's span, and the request's page says why,
 * naming the setting and the file that sets it. A request that does its work itself gets
 * no such note.
 */
@SpringBootTest(classes = AsyncWithoutContextApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spanprofile.interval=10ms", "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class AsyncWithoutContextWebTests {

	private static final String NOTE_CAUSE = "because spring.task.execution.propagate-context is false (set in "
			+ "class path resource [context-propagation-off.properties]): set it to true (or remove it)";

	private static final long CPU_MILLIS = 300;

	private static final String HOT = "Burner.handedOffHotMethod";

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	private EndpointClient endpoint;

	@BeforeEach
	void profilerRuns() {
		this.endpoint = new EndpointClient(this.port, this.profiler);
		assertThat(this.profiler.status().running()).as("%s", this.profiler.status()).isTrue();
	}

	@Test
	void aRequestWhoseWorkLeftWithoutItsContextSaysWhy() throws Exception {
		// The first request compiles the hot method; kept out.
		assertThat(this.endpoint.get("/handoff?cpuMillis=50", "text/plain").body()).startsWith("task-");
		this.endpoint.awaitCompleteSpan("http get /handoff");
		Set<String> known = this.endpoint.spanIds();
		HttpResponse<String> answer = this.endpoint.get("/handoff?cpuMillis=" + CPU_MILLIS, "text/plain");
		// Boot's task executor names its threads task-N: the work left the request's
		// thread, and with the application's false no span went with it.
		assertThat(answer.body()).startsWith("task-");
		String id = (String) this.endpoint.awaitNewCompleteSpan("http get /handoff", known).get("spanId");
		String collapsed = this.endpoint.get("/actuator/spanprofile/" + id + "?event=cpu", "text/plain").body();
		assertThat(EndpointClient.samplesWith(collapsed, HOT)).as(collapsed).isZero();
		@SuppressWarnings("unchecked")
		Map<String, Object> breakdown = (Map<String, Object>) this.endpoint.json("/actuator/spanprofile/" + id)
			.get("timeBreakdown");
		// The request's thread parked for about the 300 ms the work took elsewhere,
		// with a few milliseconds of CPU of its own.
		assertThat(((Number) breakdown.get("cpuMillis")).doubleValue()).as("%s", breakdown)
			.isLessThan(0.1 * CPU_MILLIS);
		assertThat(((Number) breakdown.get("durationMillis")).doubleValue()).as("%s", breakdown)
			.isGreaterThanOrEqualTo(CPU_MILLIS);
		assertThat((String) breakdown.get("handOff")).as("%s", breakdown)
			.matches("\\d+ % of this request's time is unaccounted for or parked, .*")
			.contains("its work likely ran on another thread without its context, " + NOTE_CAUSE);
		String page = this.endpoint.get("/actuator/spanprofile/" + id, "text/html").body();
		assertThat(page).contains("<p class=\"hand-off\">")
			.contains("spring.task.execution.propagate-context is false (set in class path resource "
					+ "[context-propagation-off.properties])");
	}

	@Test
	void aRequestThatDoesItsOwnWorkHasNoNote() throws Exception {
		assertThat(this.endpoint.get("/inline?cpuMillis=50", "text/plain").body()).doesNotStartWith("task-");
		this.endpoint.awaitCompleteSpan("http get /inline");
		Set<String> known = this.endpoint.spanIds();
		this.endpoint.get("/inline?cpuMillis=" + CPU_MILLIS, "text/plain");
		String id = (String) this.endpoint.awaitNewCompleteSpan("http get /inline", known).get("spanId");
		String collapsed = this.endpoint.get("/actuator/spanprofile/" + id + "?event=cpu", "text/plain").body();
		// Its own work is in its graph: 300 ms at 10 ms, about 30 samples, 4 Poisson
		// standard deviations either side.
		assertThat(EndpointClient.samplesWith(collapsed, HOT)).as(collapsed).isBetween(8L, 52L);
		@SuppressWarnings("unchecked")
		Map<String, Object> breakdown = (Map<String, Object>) this.endpoint.json("/actuator/spanprofile/" + id)
			.get("timeBreakdown");
		assertThat(breakdown).as("%s", breakdown).doesNotContainKey("handOff");
		assertThat(this.endpoint.get("/actuator/spanprofile/" + id, "text/html").body())
			.doesNotContain("class=\"hand-off\"");
	}

}
