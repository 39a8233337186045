package dev.spanprofile.actuate;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.Tmpfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The disk under {@code spanprofile.work-directory} fills up while a real application
 * serves requests: they all succeed, the endpoint keeps answering, the problem is logged
 * once, and requests are profiled again once space is back. The disk is a 4 MiB tmpfs
 * mounted for the test (root only; skipped elsewhere).
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=health,spanprofile", "spanprofile.dump-interval=200ms",
				"management.otlp.metrics.export.enabled=false" })
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext
class SpanProfilerFaultWebTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String FAILURE = "spanprofile: collecting samples failed";

	private static Path disk;

	private static boolean mounted;

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@DynamicPropertySource
	static void smallDisk(DynamicPropertyRegistry registry) throws IOException {
		disk = Files.createTempDirectory("spanprofile-disk");
		mounted = Tmpfs.mount(disk, "4m");
		registry.add("spanprofile.work-directory", disk::toString);
	}

	@AfterEach
	void stopProfilingBeforeTheDiskGoes() {
		this.profiler.stop();
	}

	@AfterAll
	static void unmount() throws IOException {
		if (mounted) {
			Tmpfs.unmount(disk);
		}
		Files.deleteIfExists(disk);
	}

	@Test
	void requestsSucceedThroughAFullDiskAndAreProfiledAgainAfterIt(CapturedOutput output) throws Exception {
		Tmpfs.assumeMounted(mounted, "the full-disk web test");
		assertThat(this.profiler.status().running()).isTrue();
		assertThat(newestBurnSamplesAfterRequest()).as("samples before the disk fills").isGreaterThan(10);

		Path filler = disk.resolve("filler");
		fill(filler);
		for (int i = 0; i < 6; i++) {
			assertThat(get("/burn?cpuMillis=100").statusCode()).as("request while the disk is full").isEqualTo(200);
			assertThat(get("/actuator/spanprofile").statusCode()).as("endpoint while the disk is full").isEqualTo(200);
		}
		Thread.sleep(800);
		String whileFull = output.getAll();

		Files.delete(filler);
		long samplesAfter = 0;
		for (int attempt = 0; attempt < 10 && samplesAfter <= 10; attempt++) {
			samplesAfter = newestBurnSamplesAfterRequest();
		}
		assertThat(samplesAfter).as("samples once space is back").isGreaterThan(10);
		assertThat(occurrences(whileFull, FAILURE)).as("warnings while full").isEqualTo(1);
		assertThat(whileFull).contains(disk + ": 0 bytes usable");
		assertThat(occurrences(output.getAll(), FAILURE)).as("warnings in all").isEqualTo(1);
	}

	/** One profiled request, then the samples of the newest complete /burn span. */
	private long newestBurnSamplesAfterRequest() throws Exception {
		assertThat(get("/burn?cpuMillis=300").statusCode()).isEqualTo(200);
		this.profiler.collectNow();
		HttpResponse<String> list = get(
				"/actuator/spanprofile?limit=1&name=" + URLEncoder.encode("http get /burn", StandardCharsets.UTF_8));
		assertThat(list.statusCode()).isEqualTo(200);
		Map<String, Object> body = json.readValue(list.body(), new TypeReference<>() {
		});
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> spans = (List<Map<String, Object>>) body.get("spans");
		return spans.isEmpty() ? 0 : ((Number) spans.get(0).get("samples")).longValue();
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("Accept", "application/json")
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private static void fill(Path file) throws IOException {
		byte[] block = new byte[64 * 1024];
		try (OutputStream out = Files.newOutputStream(file)) {
			for (int i = 0; i < 1024; i++) {
				out.write(block);
			}
		}
		catch (IOException ex) {
			assertThat(ex).hasMessageContaining("No space left on device");
			return;
		}
		throw new AssertionError("64 MiB fitted into a 4 MiB file system");
	}

	private static int occurrences(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
			count++;
		}
		return count;
	}

}
