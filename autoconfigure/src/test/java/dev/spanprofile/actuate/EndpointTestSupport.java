package dev.spanprofile.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** HTTP helpers for tests against a running application's spanprofile endpoint. */
final class EndpointTestSupport {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	private final int port;

	private final SpanProfiler profiler;

	EndpointTestSupport(int port, SpanProfiler profiler) {
		this.port = port;
		this.profiler = profiler;
	}

	HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.header("Accept", accept)
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	Map<String, Object> json(String path) throws Exception {
		HttpResponse<String> response = get(path, "application/json");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json.readValue(response.body(), new TypeReference<>() {
		});
	}

	@SuppressWarnings("unchecked")
	List<Map<String, Object>> spans(String query) throws Exception {
		return (List<Map<String, Object>>) json("/actuator/spanprofile" + query).get("spans");
	}

	/** Wait until the named span has ended and all its samples are joined. */
	Map<String, Object> awaitCompleteSpan(String name) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
		while (System.nanoTime() < deadline) {
			this.profiler.collectNow();
			for (Map<String, Object> span : spans("?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8))) {
				if (name.equals(span.get("name")) && Boolean.TRUE.equals(span.get("complete"))) {
					return span;
				}
			}
			Thread.sleep(100);
		}
		throw new AssertionError("No complete span named " + name + " in " + spans(""));
	}

	/** Samples per collapsed-stack line containing {@code frame}. */
	static long samplesWith(String collapsed, String frame) {
		long count = 0;
		for (String line : collapsed.split("\n")) {
			if (!line.isBlank() && line.contains(frame)) {
				count += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return count;
	}

}
