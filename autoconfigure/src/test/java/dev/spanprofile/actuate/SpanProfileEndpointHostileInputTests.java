package dev.spanprofile.actuate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile ids and parameters against a real server. Whoever answers (the endpoint,
 * Spring's error handling for paths that are not the endpoint's, or Tomcat for requests
 * it refuses to parse), it is never a 5xx, and no response carries markup from the input.
 * What reaches the endpoint gets a 400 or 404 with a JSON message.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class SpanProfileEndpointHostileInputTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String BASE = "/actuator/spanprofile";

	private static final String JSON = "application/json";

	private static final String UNKNOWN_ID = "0123456789abcdef";

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	static Stream<Hostile> hostileRequests() {
		return Stream.of(
				// Ids, answered by the endpoint.
				Hostile.endpoint("id too short", BASE + "/abc", 400),
				Hostile.endpoint("id one character too long", BASE + "/0123456789abcdef0", 400),
				Hostile.endpoint("id one character too short", BASE + "/0123456789abcde", 400),
				Hostile.endpoint("id not hexadecimal", BASE + "/0123456789abcdeg", 400),
				Hostile.endpoint("id with a 0x prefix", BASE + "/0x23456789abcdef", 400),
				Hostile.endpoint("id in check marks", BASE + "/%E2%9C%93%E2%9C%93", 400),
				Hostile.endpoint("id with a fullwidth digit", BASE + "/%EF%BC%90123456789abcde", 400),
				Hostile.endpoint("id with a right-to-left override", BASE + "/%E2%80%AE0123456789abcde", 400),
				Hostile.endpoint("id of emoji", BASE + "/%F0%9F%98%80%F0%9F%98%80", 400),
				Hostile.endpoint("id of encoded dots", BASE + "/%2e%2e", 400),
				Hostile.endpoint("id with a script tag", BASE + "/%3Cscript%3Ealert(1)", 400),
				Hostile.endpoint("id with an encoded CRLF and header", BASE + "/abc%0d%0aSet-Cookie:%20x=1", 400),
				Hostile.endpoint("id with a matrix parameter", BASE + "/abc;x=%3Cscript%3E", 400),
				Hostile.endpoint("id of 5000 characters", BASE + "/" + "a".repeat(5000), 400),
				Hostile.endpoint("id asked for as text/plain", BASE + "/%3Cscript%3E", "text/plain", 400),
				Hostile.endpoint("unknown id", BASE + "/" + UNKNOWN_ID, 404),
				Hostile.endpoint("unknown id in upper case", BASE + "/0123456789ABCDEF", 404),
				Hostile.endpoint("all-zero id", BASE + "/0000000000000000", 404),
				Hostile.endpoint("unknown id asked for as text/plain", BASE + "/" + UNKNOWN_ID, "text/plain", 404),
				// A segment after an id: only names has a path below it, the span name.
				Hostile.endpoint("extra segment", BASE + "/" + UNKNOWN_ID + "/extra", 404),
				Hostile.endpoint("script tag as span name", BASE + "/names/%3Cscript%3Ealert(1)", 404),
				Hostile.endpoint("span name of 5000 characters", BASE + "/names/" + "n".repeat(5000), 404),
				Hostile.endpoint("span name of encoded dots", BASE + "/names/%2e%2e/%2e%2e", 404),
				Hostile.endpoint("bad comparison of a span name", BASE + "/names/a/b?compare=%3Cscript%3E", 400),
				Hostile.endpoint("span name and format in the query", BASE + "/names/a?format=%3Cscript%3E", 400),
				Hostile.tolerated("script tag as span name asked for as HTML", BASE + "/names/%3Cscript%3Ealert(1)",
						"text/html"),
				Hostile.tolerated("span name with a matrix parameter", BASE + "/names/a;x=%3Cscript%3E", JSON),
				// List parameters, answered by the endpoint.
				Hostile.endpoint("negative limit", BASE + "?limit=-3", 400),
				Hostile.endpoint("zero limit", BASE + "?limit=0", 400),
				Hostile.endpoint("limit past a long", BASE + "?limit=99999999999999999999", 400),
				Hostile.endpoint("limit past an int", BASE + "?limit=2147483648", 400),
				Hostile.endpoint("fractional limit", BASE + "?limit=1.5", 400),
				Hostile.endpoint("NaN limit", BASE + "?limit=NaN", 400),
				Hostile.endpoint("hexadecimal limit", BASE + "?limit=0x10", 400),
				Hostile.endpoint("repeated limit", BASE + "?limit=5&limit=6", 400),
				Hostile.endpoint("script tag as limit", BASE + "?limit=%3Cscript%3Ealert(1)%3C/script%3E", 400),
				Hostile.endpoint("NUL as limit", BASE + "?limit=%00", 400),
				Hostile.endpoint("negative duration", BASE + "?minDurationMillis=-1", 400),
				Hostile.endpoint("NaN duration", BASE + "?minDurationMillis=NaN", 400),
				Hostile.endpoint("infinite duration", BASE + "?minDurationMillis=Infinity", 400),
				Hostile.endpoint("negative infinite duration", BASE + "?minDurationMillis=-Infinity", 400),
				Hostile.endpoint("duration past a double", BASE + "?minDurationMillis=1e400", 400),
				Hostile.endpoint("duration in words", BASE + "?minDurationMillis=ten", 400),
				Hostile.endpoint("script tag as duration", BASE + "?minDurationMillis=%3Cscript%3Ealert(1)", 400),
				Hostile.endpoint("duration of 5000 characters", BASE + "?minDurationMillis=" + "9x".repeat(2500), 400),
				// Paths that are not the endpoint's: Spring's error handling answers.
				Hostile.spring("empty id", BASE + "/", 404), Hostile.spring("double slash", BASE + "//", 404),
				Hostile.spring("dot segments", BASE + "/../../etc/passwd", 404),
				// Requests Tomcat refuses to parse, before any application code.
				Hostile.server("percent-encoded slashes", BASE + "/..%2F..%2Fetc%2Fpasswd"),
				Hostile.server("script tag with an encoded slash", BASE + "/%3Cscript%3Ealert(1)%3C%2Fscript%3E"),
				Hostile.server("encoded NUL in the path", BASE + "/%00"),
				Hostile.server("name of 20000 characters", BASE + "?name=" + "b".repeat(20_000)),
				Hostile.rawServer("raw script tag in the path", BASE + "/<script>alert(1)</script>"),
				Hostile.rawServer("raw script tag in the query", BASE + "?limit=<script>alert(1)</script>"),
				Hostile.rawServer("raw space in the path", BASE + "/a b"),
				Hostile.endpoint("script tag as format", BASE + "?format=%3Cscript%3Ealert(1)%3C/script%3E", 400),
				Hostile.endpoint("pprof format of an unknown span", BASE + "/" + UNKNOWN_ID + "?format=pprof", 404),
				Hostile.endpoint("path as format", BASE + "/" + UNKNOWN_ID + "?format=..%2F..%2Fetc%2Fpasswd", 400),
				Hostile.endpoint("unknown event", BASE + "/" + UNKNOWN_ID + "?event=%3Cscript%3E", 400),
				// Lenient notations and other representations: these must not be 5xx nor
				// echo markup.
				Hostile.tolerated("html format", BASE + "?format=html", JSON),
				Hostile.tolerated("repeated format", BASE + "?format=json&format=html", JSON),
				Hostile.tolerated("empty format", BASE + "?format=", JSON),
				Hostile.tolerated("unknown parameters", BASE + "?debug=true&unknown=%3Cscript%3E", JSON),
				Hostile.tolerated("script tag as name filter", BASE + "?name=%3Cscript%3Ealert(1)", JSON),
				Hostile.tolerated("name filter of 4000 characters", BASE + "?name=" + "n".repeat(4000), JSON),
				Hostile.tolerated("empty limit (the default)", BASE + "?limit=", JSON),
				Hostile.tolerated("fullwidth digit as limit", BASE + "?limit=%EF%BC%95", JSON),
				Hostile.tolerated("negative zero duration", BASE + "?minDurationMillis=-0", JSON),
				Hostile.tolerated("list asked for as HTML", BASE, "text/html"),
				Hostile.tolerated("span asked for as HTML", BASE + "/%3Cscript%3Ealert(1)", "text/html"),
				Hostile.tolerated("span asked for as protobuf", BASE + "/" + UNKNOWN_ID, "application/x-protobuf"),
				Hostile.tolerated("malformed Accept", BASE + "/" + UNKNOWN_ID, "<script>/alert(1);q=x"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("hostileRequests")
	void neverAServerErrorNorMarkupFromTheInput(Hostile hostile) throws Exception {
		Answer answer = hostile.raw() ? sendRaw(hostile.target()) : send(hostile.target(), hostile.accept());
		System.out.printf("hostile %-40s -> %d %s%n", hostile.description(), answer.status(), answer.contentType());
		assertThat(answer.status()).as("status").isBetween(200, 499);
		// The HTML pages have scripts of their own; what must never appear is the input's
		// markup.
		assertThat(answer.body().toLowerCase(Locale.ROOT)).as("body")
			.doesNotContain("<script>alert")
			.doesNotContain("<script>/alert");
		if (!answer.contentType().startsWith("text/html")) {
			assertThat(answer.body().toLowerCase(Locale.ROOT)).as("body").doesNotContain("<script");
		}
		assertThat(answer.body()).as("body").doesNotContain("Exception").doesNotContain("\tat ");
		switch (hostile.responder()) {
			case ENDPOINT -> {
				assertThat(answer.status()).as("status").isEqualTo(hostile.status());
				assertThat(answer.contentType()).startsWith(JSON);
				assertThat(jsonBody(answer).get("message")).as("message")
					.isInstanceOf(String.class)
					.asString()
					.isNotBlank();
			}
			case SPRING -> {
				assertThat(answer.status()).as("status").isEqualTo(hostile.status());
				assertThat(answer.contentType()).startsWith(JSON);
				assertThat(jsonBody(answer)).containsEntry("status", hostile.status()).containsKey("error");
			}
			case SERVER -> assertThat(answer.status()).as("status").isEqualTo(400);
			case TOLERATED -> {
				if (answer.status() >= 400 && answer.contentType().startsWith(JSON)) {
					assertThat(jsonBody(answer)).as("JSON error").containsKey("error");
				}
			}
		}
	}

	@Test
	void plainInputIsQuotedBackAndAnythingElseIsMasked() throws Exception {
		assertThat(jsonBody(send(BASE + "/abc", JSON)).get("message")).asString().startsWith("'abc' is not a span id");
		assertThat(jsonBody(send(BASE + "/%3Cscript%3Ealert(1)", JSON)).get("message")).asString()
			.startsWith("'?script?alert(1)' is not a span id");
		assertThat(jsonBody(send(BASE + "/abc%0d%0aSet-Cookie:%20x=1", JSON)).get("message")).asString()
			.startsWith("'abc??Set-Cookie: x=1' is not a span id");
		assertThat(jsonBody(send(BASE + "?limit=" + "7".repeat(100), JSON)).get("message")).asString()
			.isEqualTo("limit must be a whole number, was '" + "7".repeat(64) + "...'");
	}

	@Test
	void theApplicationStillServesAfterwards() throws Exception {
		for (Hostile hostile : hostileRequests().toList()) {
			if (!hostile.raw()) {
				send(hostile.target(), hostile.accept());
			}
		}
		assertThat(send("/burn?cpuMillis=10", "text/plain").status()).isEqualTo(200);
		assertThat(send(BASE, JSON).status()).isEqualTo(200);
		assertThat(hostileRequests().count()).as("hostile requests").isGreaterThanOrEqualTo(30);
	}

	private Answer send(String target, String accept) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + target))
			.header("Accept", accept)
			.build();
		HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
		return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
				response.body());
	}

	/** For request targets no well-behaved client would send. */
	private Answer sendRaw(String target) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
					+ "Connection: close\r\n\r\n")
				.getBytes(StandardCharsets.UTF_8));
			out.flush();
			InputStream in = socket.getInputStream();
			String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			int headersEnd = response.indexOf("\r\n\r\n");
			String head = response.substring(0, Math.max(0, headersEnd));
			String contentType = "";
			for (String line : head.split("\r\n")) {
				if (line.toLowerCase(Locale.ROOT).startsWith("content-type:")) {
					contentType = line.substring("content-type:".length()).trim();
				}
			}
			int status = Integer.parseInt(head.split(" ")[1]);
			return new Answer(status, contentType, response.substring(headersEnd + 4));
		}
	}

	private static Map<String, Object> jsonBody(Answer answer) {
		return json.readValue(answer.body(), new TypeReference<>() {
		});
	}

	enum Responder {

		/** The endpoint itself: exact status, JSON with a message. */
		ENDPOINT,

		/**
		 * Spring Boot's error handling, for paths no endpoint maps: exact status, JSON
		 * error attributes.
		 */
		SPRING,

		/** Tomcat, for requests it will not parse: a 400 with its own static page. */
		SERVER,

		/** Any non-5xx answer, JSON when it is an error of ours. */
		TOLERATED

	}

	record Hostile(String description, String target, String accept, Responder responder, int status, boolean raw) {

		static Hostile endpoint(String description, String target, int status) {
			return endpoint(description, target, JSON, status);
		}

		static Hostile endpoint(String description, String target, String accept, int status) {
			return new Hostile(description, target, accept, Responder.ENDPOINT, status, false);
		}

		static Hostile spring(String description, String target, int status) {
			return new Hostile(description, target, JSON, Responder.SPRING, status, false);
		}

		static Hostile server(String description, String target) {
			return new Hostile(description, target, JSON, Responder.SERVER, 400, false);
		}

		static Hostile rawServer(String description, String target) {
			return new Hostile(description, target, JSON, Responder.SERVER, 400, true);
		}

		static Hostile tolerated(String description, String target, String accept) {
			return new Hostile(description, target, accept, Responder.TOLERATED, 0, false);
		}

		@Override
		public String toString() {
			return this.description;
		}

	}

	record Answer(int status, String contentType, String body) {
	}

}
