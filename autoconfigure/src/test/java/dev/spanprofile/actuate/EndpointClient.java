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
import java.util.function.Predicate;

import dev.spanprofile.SpanProfiler;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Calls a test server on loopback and reads the spanprofile endpoint's JSON. */
final class EndpointClient {

	/** What Chromium sends for a page load. */
	static final String BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
			+ "image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";

	static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	private final int port;

	private final SpanProfiler profiler;

	EndpointClient(int port, SpanProfiler profiler) {
		this.port = port;
		this.profiler = profiler;
	}

	String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
		return this.http.send(request(path, accept), HttpResponse.BodyHandlers.ofString());
	}

	/** A GET with a header of its own, such as an incoming trace context. */
	HttpResponse<String> get(String path, String accept, String header, String value)
			throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create(url(path)))
			.header("Accept", accept)
			.header(header, value)
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<String> delete(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create(url(path))).DELETE().build(),
				HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<byte[]> getBytes(String path, String accept) throws IOException, InterruptedException {
		return this.http.send(request(path, accept), HttpResponse.BodyHandlers.ofByteArray());
	}

	java.util.concurrent.CompletableFuture<HttpResponse<String>> getAsync(String path) {
		return this.http.sendAsync(request(path, "text/plain"), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String path, String accept) {
		return HttpRequest.newBuilder(URI.create(url(path))).header("Accept", accept).build();
	}

	Map<String, Object> readJson(String body) {
		return json.readValue(body, new TypeReference<>() {
		});
	}

	List<Map<String, Object>> spans(String query) throws Exception {
		HttpResponse<String> response = get("/actuator/spanprofile" + query, "application/json");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> spans = (List<Map<String, Object>>) readJson(response.body()).get("spans");
		return spans;
	}

	/**
	 * The newest listed span named {@code name} that satisfies {@code condition}, waiting
	 * up to 15 s for it.
	 */
	Map<String, Object> awaitSpan(String name, Predicate<Map<String, Object>> condition) throws Exception {
		long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
		while (System.nanoTime() < deadline) {
			this.profiler.collectNow();
			for (Map<String, Object> span : spans("?name=" + URLEncoder.encode(name, StandardCharsets.UTF_8))) {
				if (name.equals(span.get("name")) && condition.test(span)) {
					return span;
				}
			}
			Thread.sleep(100);
		}
		throw new AssertionError("No span named " + name + " as expected in " + spans(""));
	}

	Map<String, Object> awaitCompleteSpan(String name) throws Exception {
		return awaitSpan(name, (span) -> Boolean.TRUE.equals(span.get("complete")));
	}

	/** The JSON body of a 200 answer to {@code path}. */
	Map<String, Object> json(String path) throws Exception {
		HttpResponse<String> response = get(path, "application/json");
		org.assertj.core.api.Assertions.assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return readJson(response.body());
	}

	/** Samples on the collapsed-stack lines that contain {@code frame}. */
	static long samplesWith(String collapsed, String frame) {
		long count = 0;
		for (String line : collapsed.split("\n")) {
			if (!line.isBlank() && line.contains(frame)) {
				count += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
			}
		}
		return count;
	}

	/**
	 * Ids of the spans listed now, to tell a request's span from earlier ones of the same
	 * name.
	 */
	java.util.Set<String> spanIds() throws Exception {
		java.util.Set<String> ids = new java.util.HashSet<>();
		for (Map<String, Object> span : spans("?limit=100000")) {
			ids.add((String) span.get("spanId"));
		}
		return ids;
	}

	/** A complete span named {@code name} that is not one of {@code known}. */
	Map<String, Object> awaitNewCompleteSpan(String name, java.util.Set<String> known) throws Exception {
		return awaitSpan(name,
				(span) -> Boolean.TRUE.equals(span.get("complete")) && !known.contains(span.get("spanId")));
	}

}
