package dev.spanprofile.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Calls the shop's endpoints continuously from a few client threads on loopback, so that
 * flame graphs appear as soon as the application is up. Stops by itself after
 * {@code sample.load.duration}; off with {@code sample.load.enabled=false}.
 */
@Component
@ConditionalOnBooleanProperty(name = "sample.load.enabled", matchIfMissing = true)
class LoadGenerator {

	private static final Log logger = LogFactory.getLog(LoadGenerator.class);

	private static final List<String> PATHS = List.of("/orders/%d/validate?items=%d", "/reports/r-%d?x=%d",
			"/checkout/cart-%d?x=%d", "/inventory/sku-%d/reserve?x=%d", "/reports/r-%d/export?rows=%d0000");

	private final Environment environment;

	LoadGenerator(Environment environment) {
		this.environment = environment;
	}

	@EventListener
	void start(ApplicationReadyEvent event) {
		if (!(event.getApplicationContext() instanceof WebServerApplicationContext web)) {
			return;
		}
		int port = web.getWebServer().getPort();
		int clients = this.environment.getProperty("sample.load.clients", Integer.class, 3);
		Duration duration = this.environment.getProperty("sample.load.duration", Duration.class,
				Duration.ofMinutes(30));
		long pauseMillis = this.environment.getProperty("sample.load.pause", Duration.class, Duration.ofMillis(100))
			.toMillis();
		long until = System.nanoTime() + duration.toNanos();
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		for (int i = 0; i < clients; i++) {
			Thread client = new Thread(() -> run(http, port, until, pauseMillis), "load-client-" + i);
			client.setDaemon(true);
			client.start();
		}
		logger.info("Load generator: " + clients + " clients calling http://localhost:" + port + " for " + duration
				+ ". Flame graphs: http://localhost:" + port + "/actuator/spanprofile");
	}

	private void run(HttpClient http, int port, long until, long pauseMillis) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		while (System.nanoTime() < until) {
			String path = String.format(PATHS.get(random.nextInt(PATHS.size())), random.nextInt(1000),
					random.nextInt(1, 10));
			try {
				http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
					.timeout(Duration.ofSeconds(10))
					.build(), HttpResponse.BodyHandlers.discarding());
				Thread.sleep(pauseMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			catch (Exception ex) {
				// The application may be shutting down; keep going until the deadline.
			}
		}
	}

}
