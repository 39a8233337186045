package dev.spanprofile.otlp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import com.sun.net.httpserver.HttpServer;
import dev.spanprofile.upload.UploadQueue;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesPartialSuccess;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OtlpHttpSenderTest {

	/**
	 * Held so that the JDK does not collect the logger, and the handler with it,
	 * mid-test.
	 */
	private static final List<Logger> loggers = new CopyOnWriteArrayList<>();

	private final HttpServer server;

	private final AtomicInteger requests = new AtomicInteger();

	private volatile int status = 200;

	private volatile byte[] answer = new byte[0];

	OtlpHttpSenderTest() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/v1development/profiles", (exchange) -> {
			try (exchange) {
				exchange.getRequestBody().readAllBytes();
				this.requests.incrementAndGet();
				byte[] body = this.answer;
				exchange.sendResponseHeaders(this.status, (body.length == 0) ? -1 : body.length);
				if (body.length > 0) {
					exchange.getResponseBody().write(body);
				}
			}
		});
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void partialSuccessIsLoggedOnceWithItsMessage() {
		this.answer = ExportProfilesServiceResponse.newBuilder()
			.setPartialSuccess(ExportProfilesPartialSuccess.newBuilder()
				.setRejectedProfiles(1)
				.setErrorMessage("wall profiles are not supported"))
			.build()
			.toByteArray();
		List<LogRecord> logged = capture(OtlpHttpSender.class);
		UploadQueue<byte[]> queue = queue(3);
		queue.add(new byte[] { 1 });
		queue.add(new byte[] { 2 });
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> queue.uploaded() == 2);
		assertThat(logged).hasSize(1);
		assertThat(logged.get(0).getMessage()).contains("wall profiles are not supported").contains("1 rejected");
		queue.stop();
	}

	@Test
	void aRejectionIsNotRetriedButAn503Is() {
		this.status = 400;
		UploadQueue<byte[]> queue = queue(3);
		queue.add(new byte[] { 1 });
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> queue.failed() == 1);
		assertThat(this.requests).hasValue(1);
		this.status = 503;
		queue.add(new byte[] { 2 });
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> queue.failed() == 2);
		assertThat(this.requests).hasValue(1 + 3);
		assertThat(queue.inOutage()).isTrue();
		queue.stop();
	}

	private UploadQueue<byte[]> queue(int maxTries) {
		OtlpSettings settings = new OtlpSettings(
				URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + "/v1development/profiles"),
				Map.of("Authorization", "Bearer x"), true, Duration.ofSeconds(10), Duration.ofSeconds(5), 4, maxTries,
				true);
		OtlpHttpSender sender = new OtlpHttpSender(settings);
		UploadQueue<byte[]> queue = new UploadQueue<>(sender, 4, settings.endpointForLogs(), "test-otlp-upload");
		sender.reportTo(queue);
		return queue;
	}

	private static List<LogRecord> capture(Class<?> source) {
		List<LogRecord> logged = new CopyOnWriteArrayList<>();
		Logger logger = Logger.getLogger(source.getName());
		loggers.add(logger);
		logger.addHandler(new Handler() {

			@Override
			public void publish(LogRecord record) {
				if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
					logged.add(record);
				}
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		});
		return logged;
	}

}
