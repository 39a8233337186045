package dev.spanprofile.pyroscope;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import dev.spanprofile.upload.UploadQueue;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server answers 503, then is unreachable, then comes back: every profile arrives at
 * most once, the application's spans are never slowed down, the waiting profiles stay
 * bounded, and the outage is logged once.
 */
class PyroscopeUploadFailureTest {

	private static final int QUEUE_CAPACITY = 1;

	@Test
	void retriesOnceAfter503AndSurvivesAnOutage() throws Exception {
		List<LogRecord> logged = new CopyOnWriteArrayList<>();
		Logger uploadLogger = Logger.getLogger(UploadQueue.class.getName());
		Handler capture = new Handler() {

			@Override
			public void publish(LogRecord record) {
				logged.add(record);
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		uploadLogger.addHandler(capture);
		int port;
		try (ServerSocket probe = new ServerSocket(0)) {
			port = probe.getLocalPort();
		}
		IngestReceiver receiver = new IngestReceiver(port);
		receiver.respondWith(503);
		try (PyroscopeHarness harness = new PyroscopeHarness(receiver.address(), true, QUEUE_CAPACITY, 3)) {
			// 503 then 200: the rejected profile is sent again, and accepted exactly
			// once.
			PyroscopeHarness.await("two accepted uploads", Duration.ofSeconds(15),
					() -> receiver.accepted().size() >= 2);
			IngestReceiver.Upload rejected = receiver.requests.get(0);
			assertThat(rejected.status()).isEqualTo(503);
			List<String> acceptedIntervals = receiver.accepted()
				.stream()
				.map((u) -> u.query().get("from") + "-" + u.query().get("until") + "-" + u.parts().get("jfr").length)
				.toList();
			String rejectedInterval = rejected.query().get("from") + "-" + rejected.query().get("until") + "-"
					+ rejected.parts().get("jfr").length;
			assertThat(acceptedIntervals).containsOnlyOnce(rejectedInterval).doesNotHaveDuplicates();
			System.out.printf("pyroscope retry: requests %d, accepted %d, the 503'd profile accepted %d time(s)%n",
					receiver.requests.size(), receiver.accepted().size(),
					acceptedIntervals.stream().filter(rejectedInterval::equals).count());

			// The 503 was an outage of its own, logged once.
			assertThat(warnings(logged)).hasSize(1);
			long[] before = serve(harness, Duration.ofSeconds(3), null);

			// The server goes away: spans keep running as fast as before while profiles
			// pile up to the bound.
			receiver.close();
			int[] maxQueued = new int[1];
			long[] during = serve(harness, Duration.ofSeconds(6), maxQueued);
			PyroscopeEngine.UploadStats stats = harness.engine.uploadStats();
			System.out.printf(
					"pyroscope outage: median span %.2f ms before, %.2f ms during (%d and %d spans); max "
							+ "queued %d; %s%n",
					before[0] / 1e6, during[0] / 1e6, before[1], during[1], maxQueued[0], stats);
			assertThat(stats.outage()).isTrue();
			// Each profile of the outage is either dropped from the full queue or given
			// up after max-tries, whichever the agent's retry timing makes come first
			// (UploadQueueTest pins the dropping itself); none is kept.
			assertThat(stats.dropped() + stats.failed()).as("profiles dropped or given up, not kept without bound")
				.isPositive();
			assertThat(during[0]).as("median span during the outage").isLessThan(3 * before[0] + 2_000_000);
			assertThat(maxQueued[0]).isLessThanOrEqualTo(QUEUE_CAPACITY);
			assertThat(warnings(logged)).as("one more warning for the whole outage").hasSize(2);

			// The server comes back on the same address: uploads resume, the recovery is
			// logged, no new warning.
			try (IngestReceiver back = new IngestReceiver(port)) {
				PyroscopeHarness.await("an upload after the outage", Duration.ofSeconds(30),
						() -> !back.accepted().isEmpty());
				PyroscopeHarness.await("the recovery log line", Duration.ofSeconds(5), () -> logged.stream()
					.anyMatch((r) -> r.getLevel() == Level.INFO && r.getMessage().contains("works again")));
				assertThat(warnings(logged)).hasSize(2);
				// An attempt the agent began against the closed port may still fail after
				// the
				// first upload that worked: the next one ends the outage again.
				PyroscopeHarness.await("the outage over", Duration.ofSeconds(30),
						() -> !harness.engine.uploadStats().outage());
			}
		}
		finally {
			receiver.close();
			uploadLogger.removeHandler(capture);
		}
	}

	/**
	 * Run short spans for {@code duration}; returns the median span time and the number
	 * of spans.
	 */
	private static long[] serve(PyroscopeHarness harness, Duration duration, int[] maxQueued) {
		List<Long> times = new java.util.ArrayList<>();
		long begin = System.nanoTime();
		while (System.nanoTime() - begin < duration.toNanos()) {
			long start = System.nanoTime();
			Span span = harness.tracer.spanBuilder("request").startSpan();
			try (Scope scope = span.makeCurrent()) {
				Burners.headHot(2);
			}
			finally {
				span.end();
			}
			times.add(System.nanoTime() - start);
			if (maxQueued != null) {
				maxQueued[0] = Math.max(maxQueued[0], harness.engine.uploadStats().queued());
			}
		}
		java.util.Collections.sort(times);
		return new long[] { times.get(times.size() / 2), times.size() };
	}

	private static List<LogRecord> warnings(List<LogRecord> logged) {
		return logged.stream().filter((r) -> r.getLevel() == Level.WARNING).toList();
	}

}
