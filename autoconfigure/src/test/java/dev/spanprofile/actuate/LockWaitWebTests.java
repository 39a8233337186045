package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.spanprofile.SpanProfiler;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two requests wait at the same time, one blocked on a monitor and one parked on a
 * {@code ReentrantLock}, each held by a thread outside any span for a known time: each
 * request's lock graph holds its own wait, in its own method.
 * <p>
 * A lock event is recorded when the wait ends, and async-profiler skips the events
 * recorded while a dump holds its locks, which on a loaded machine can take hundreds of
 * milliseconds (AsyncProfilerDumpLossTest): a wait ending then is lost whole. Dumps 30 s
 * apart keep that loss, measured on its own there, out of what this test measures, the
 * join; waits that span dumps are examined in AllocationAndLockAttributionTest.
 */
@SpringBootTest(classes = BurnApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile", "spanprofile.event=cpu,alloc,lock",
				"spanprofile.dump-interval=30s", "management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class LockWaitWebTests {

	private static final long HOLD_MILLIS = 300;

	private static final String MONITOR = "recognisablyBlockedOnMonitor";

	private static final String REENTRANT = "recognisablyParkedOnReentrantLock";

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Test
	void requestsBlockedOnAMonitorAndParkedOnALockEachGetTheirOwnWait() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		// Each path once before: the first concurrent requests contend on loading the
		// same classes (tens of milliseconds of monitor waits each on a loaded machine),
		// which is not the wait this test is about.
		for (String path : new String[] { "/locks/monitor?holdMillis=1", "/locks/reentrant?holdMillis=1" }) {
			assertThat(client.getAsync(path).get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
		Set<String> known = client.spanIds();
		CompletableFuture<HttpResponse<String>> monitor = client.getAsync("/locks/monitor?holdMillis=" + HOLD_MILLIS);
		CompletableFuture<HttpResponse<String>> reentrant = client
			.getAsync("/locks/reentrant?holdMillis=" + HOLD_MILLIS);
		long monitorWait = waited(monitor);
		long reentrantWait = waited(reentrant);

		ownWait(client, client.awaitNewCompleteSpan("http get /locks/monitor", known), MONITOR, REENTRANT, monitorWait);
		ownWait(client, client.awaitNewCompleteSpan("http get /locks/reentrant", known), REENTRANT, MONITOR,
				reentrantWait);
	}

	private void ownWait(EndpointClient client, Map<String, Object> span, String own, String other, long waited)
			throws Exception {
		String id = (String) span.get("spanId");
		String lock = client.get("/actuator/spanprofile/" + id + "?event=lock", "text/plain").body();
		long total = EndpointClient.samplesWith(lock, "");
		long inOwn = EndpointClient.samplesWith(lock, own);
		long inOther = EndpointClient.samplesWith(lock, other);
		System.out.printf("%s: %d of %d ns in %s (%.1f %%), %d in %s, measured wait %d ns (recorded %.1f %%)%n",
				span.get("name"), inOwn, total, own, 100.0 * inOwn / total, inOther, other, waited,
				100.0 * inOwn / waited);
		if (inOwn < total) {
			for (String line : lock.split("\n")) {
				if (!line.isBlank() && !line.contains(own)) {
					System.out.println("  other wait of the span: " + line);
				}
			}
		}
		assertThat(inOwn).as("wait in %s of the span's %d ns", own, total)
			.isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
		assertThat(inOther).as("wait in the other request's %s", other).isZero();
		// Every contended wait is recorded (threshold 0) with its own duration, timed by
		// the JVM inside the clock reads the request made around the same acquisition:
		// never more than the request measured, and less only by the moments between a
		// clock read and the blocking itself (spinning before blocking, being descheduled
		// on a busy machine), which 10 % of a 300 ms wait amply covers.
		assertThat((double) inOwn).as("recorded wait vs measured %d ns", waited).isBetween(0.9 * waited, 1.0 * waited);
		assertThat(((Number) span.get("lockWaitMillis")).doubleValue()).isCloseTo(total / 1e6,
				org.assertj.core.data.Offset.offset(1e-6));
	}

	/**
	 * What the request measured around its acquisition. The holder keeps the lock for
	 * HOLD_MILLIS after telling the request it holds it, so the request waits about that
	 * long: less the moment it takes to wake and try, more however late the holder's
	 * sleep ends. At least half of it shows the request really blocked.
	 */
	private static long waited(CompletableFuture<HttpResponse<String>> response) throws Exception {
		HttpResponse<String> answer = response.get(60, TimeUnit.SECONDS);
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		long waited = Long.parseLong(answer.body());
		assertThat(waited).as("request's measured wait")
			.isBetween(HOLD_MILLIS * 1_000_000 / 2, HOLD_MILLIS * 1_000_000 * 2);
		return waited;
	}

}
