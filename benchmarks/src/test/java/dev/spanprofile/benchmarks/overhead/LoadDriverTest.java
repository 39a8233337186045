package dev.spanprofile.benchmarks.overhead;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paced load against a local server: the rate it keeps and where its latencies count
 * from.
 */
class LoadDriverTest {

	static {
		// Headers and body go out in two writes: without it every answer waits for the
		// client's delayed acknowledgement, some 40 ms.
		System.setProperty("sun.net.httpserver.nodelay", "true");
	}

	private HttpServer server;

	private volatile long serviceMillis;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.stop(0);
		}
	}

	@Test
	void pacedLoadSendsTheRateAskedForNotAsManyAsTheServerAnswers() throws Exception {
		int port = startServer();
		try (LoadDriver load = new LoadDriver(port, "/", 2, 100)) {
			load.measure(Duration.ofMillis(300));
			LoadDriver.Window window = load.measure(Duration.ofSeconds(2));
			// A server answering at once would take thousands a second closed-loop.
			assertThat(window.requests()).isBetween(170L, 230L);
			assertThat(window.errors()).isZero();
		}
	}

	@Test
	void aServerSlowerThanTheScheduleIsChargedTheDelayOfEveryRequestDueMeanwhile() throws Exception {
		// Due every 20 ms on each connection, answered in 30: each request starts 10 ms
		// later than the one before it did, relative to when it was due.
		this.serviceMillis = 30;
		int port = startServer();
		try (LoadDriver load = new LoadDriver(port, "/", 2, 100)) {
			LoadDriver.Window window = load.measure(Duration.ofSeconds(2));
			assertThat(window.requests()).isBetween(90L, 140L);
			// Counted from when each was sent, every latency would be about 30 ms.
			assertThat(window.latencyMillis(0.99)).isGreaterThan(300);
			assertThat(window.latencyMillis(0.5)).isGreaterThan(150);
		}
	}

	private int startServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(Executors.newFixedThreadPool(2));
		byte[] body = "{}".getBytes(StandardCharsets.US_ASCII);
		this.server.createContext("/", (exchange) -> {
			try {
				Thread.sleep(this.serviceMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		this.server.start();
		return this.server.getAddress().getPort();
	}

}
