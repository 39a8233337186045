package dev.spanprofile.sample;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's hot paths come out where they should: pool work in the checkout span
 * (Spring's context-propagating executor), report steps in their own child spans.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "sample.load.enabled=false", "spanprofile.dump-interval=200ms" })
class SampleApplicationTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@Autowired
	ReportService reports;

	@Test
	void checkoutWorkOnThePoolIsInTheCheckoutSpan() throws Exception {
		// Each checkout runs beside an order validation, whose fraud rules burn CPU at
		// the same time in another request: they must show up in the validations, and
		// never in the checkouts.
		for (int i = 0; i < 5; i++) {
			CompletableFuture<Integer> validation = getAsync("/orders/order-" + i + "/validate?items=20");
			assertThat(get("/checkout/cart-" + i)).isEqualTo(200);
			assertThat(validation.get()).isEqualTo(200);
		}
		String collapsed = collapsedOf(awaitSpans("http get /checkout/{cartId}", 5));
		assertThat(collapsed).contains("PaymentService.computeRiskScore");
		assertThat(collapsedOf(awaitSpans("http get /orders/{orderId}/validate", 5)))
			.contains("OrderValidator.checkFraudRules")
			.doesNotContain("PaymentService.computeRiskScore");
		assertThat(collapsed).doesNotContain("OrderValidator.checkFraudRules");
	}

	@Test
	void reportStepsAreChildSpansWithTheirOwnHotMethods() throws Exception {
		for (int i = 0; i < 5; i++) {
			assertThat(get("/reports/r-" + i)).isEqualTo(200);
		}
		List<SpanRecord> queries = awaitSpans("report.query", 5);
		assertThat(queries)
			.allSatisfy((query) -> assertThat(query.localRoot().name()).isEqualTo("http get /reports/{reportId}"));
		String queryStacks = collapsedOf(queries);
		assertThat(queryStacks).contains("ReportService.aggregateRows").doesNotContain("ReportService.renderTable");
		assertThat(collapsedOf(awaitSpans("report.render", 5))).contains("ReportService.renderTable")
			.doesNotContain("ReportService.aggregateRows");
	}

	@Test
	void waitingForTheStockLockShowsInTheWallClockGraphOnly() throws Exception {
		for (int i = 0; i < 5; i++) {
			assertThat(get("/inventory/sku-" + i + "/reserve")).isEqualTo(200);
		}
		List<SpanRecord> reservations = awaitSpans("http get /inventory/{sku}/reserve", 5);
		long waiting = samplesIn(collapsedOf(reservations, SampleKind.WALL), "InventoryService.holdStockLock");
		long computing = samplesIn(collapsedOf(reservations, SampleKind.CPU), "InventoryService.holdStockLock");
		// Five 30 ms waits: about 15 wall samples, and a sleeping thread uses no CPU.
		assertThat(waiting).isGreaterThanOrEqualTo(5);
		assertThat(computing).isLessThanOrEqualTo(waiting / 5);
	}

	@Test
	void checkoutSpansHoldTheRiskScoringTheirCpuTimePredicts() throws Exception {
		long since = MonotonicEpoch.nowEpochNanos();
		for (int i = 0; i < 5; i++) {
			assertThat(get("/checkout/scored-" + i)).isEqualTo(200);
		}
		List<SpanRecord> checkouts = awaitSpans("http get /checkout/{cartId}", 5, since);
		long scoring = samplesIn(collapsedOf(checkouts), "PaymentService.computeRiskScore");
		// Five checkouts burn 60 ms of CPU each in the risk scoring, on the pool: 30
		// samples at 10 ms. A periodic sampler stays within four standard deviations of a
		// Poisson count either way; a join that lost the hand-off, or gave the pool's
		// work to another span, would not.
		double expected = 5 * 60 / (double) this.profiler.settings().sampler().interval().toMillis();
		assertThat((double) scoring).as("risk scoring samples vs expected %.0f", expected)
			.isBetween(expected - 4 * Math.sqrt(expected), expected + 4 * Math.sqrt(expected));
	}

	@Test
	void everyReportCountsForItsNameAndItsSamplesForTheNamesProfile() throws Exception {
		String name = "http get /reports/{reportId}";
		NameSummary before = this.profiler.aggregates().summary(name, Duration.ofHours(1));
		long since = MonotonicEpoch.nowEpochNanos();
		for (int i = 0; i < 6; i++) {
			assertThat(get("/reports/named-" + i)).isEqualTo(200);
		}
		// Once their profiles are complete, each report has been folded into its name's
		// profile exactly once.
		List<SpanRecord> reports = awaitSpans(name, 6, since);
		NameSummary after = this.profiler.aggregates().summary(name, Duration.ofHours(1));
		long storedCpu = reports.stream().mapToLong((report) -> InclusiveSamples.count(report, SampleKind.CPU)).sum();
		assertThat(after.count() - ((before != null) ? before.count() : 0)).isEqualTo(6);
		assertThat(after.cpuSamples() - ((before != null) ? before.cpuSamples() : 0)).isEqualTo(storedCpu);
		// Each report burns 40 + 25 ms of CPU in its steps: about 39 samples at 10 ms,
		// within four Poisson deviations.
		double expected = 6 * 65 / (double) this.profiler.settings().sampler().interval().toMillis();
		assertThat((double) storedCpu).isBetween(expected - 4 * Math.sqrt(expected),
				expected + 4 * Math.sqrt(expected));
	}

	@Test
	void exportBytesAreInTheExportSpansAllocationGraph() throws Exception {
		long since = MonotonicEpoch.nowEpochNanos();
		for (int i = 0; i < 3; i++) {
			assertThat(get("/reports/x-" + i + "/export?rows=20000")).isEqualTo(200);
		}
		List<SpanRecord> exports = awaitSpans("http get /reports/{reportId}/export", 3, since);
		String alloc = collapsedOf(exports, SampleKind.ALLOC);
		long total = samplesIn(alloc, "");
		long inExport = samplesIn(alloc, "ReportService.export");
		// The same exports, repeated on this thread and measured by the JVM's per-thread
		// allocation counter.
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
		long before = threads.getCurrentThreadAllocatedBytes();
		for (int i = 0; i < 3; i++) {
			this.reports.export("x-" + i, 20000);
		}
		long measured = threads.getCurrentThreadAllocatedBytes() - before;
		System.out.printf("export: %d of %d bytes in ReportService.export (%.1f %%), the same exports allocate %d%n",
				inExport, total, 100.0 * inExport / total, measured);
		assertThat(inExport).isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
		// Each allocation sample stands for about one interval of bytes; the count varies
		// like a Poisson count: four deviations either way (the rest of each request
		// allocates a few kilobytes, well inside one).
		double interval = this.profiler.settings().sampler().allocInterval();
		double expected = measured / interval;
		assertThat(total / interval).as("samples' worth of bytes, expected %.0f", expected)
			.isBetween(expected - 4 * Math.sqrt(expected), expected + 4 * Math.sqrt(expected));
	}

	@Test
	void waitsForTheStockLockAreInTheReservationsLockGraph() throws Exception {
		int requests = 8;
		// A first round warms the path up: in a cold application concurrent first
		// requests also wait for each other in class loading and lazy initialisation,
		// which is real lock contention but not this test's.
		reserveAtOnce("warm", requests);
		long since = MonotonicEpoch.nowEpochNanos();
		reserveAtOnce("contended", requests);
		List<SpanRecord> spans = awaitSpans("http get /inventory/{sku}/reserve", requests, since);
		long total = 0;
		for (SpanRecord span : spans) {
			long waited = InclusiveSamples.count(span, SampleKind.LOCK);
			// A request cannot wait for the lock while it holds it (30 ms), nor outside
			// its span.
			assertThat(waited).isLessThanOrEqualTo(span.endEpochNanos() - span.startEpochNanos() - 30_000_000L);
			total += waited;
		}
		String lock = collapsedOf(spans, SampleKind.LOCK);
		long inReserve = samplesIn(lock, "InventoryService.reserve");
		System.out.printf("stock lock: %d of %d ns in InventoryService.reserve%n", inReserve, total);
		// Sent at once, the reservations queue on the lock: they waited, and there.
		assertThat(total).isPositive();
		assertThat(inReserve).isGreaterThanOrEqualTo((long) Math.ceil(0.9 * total));
	}

	private void reserveAtOnce(String prefix, int requests) throws Exception {
		List<CompletableFuture<Integer>> reservations = new java.util.ArrayList<>();
		for (int i = 0; i < requests; i++) {
			reservations.add(getAsync("/inventory/" + prefix + "-" + i + "/reserve"));
		}
		for (CompletableFuture<Integer> reservation : reservations) {
			assertThat(reservation.get()).isEqualTo(200);
		}
	}

	private static long samplesIn(String collapsed, String frame) {
		return collapsed.lines()
			.filter((line) -> line.contains(frame))
			.mapToLong((line) -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)))
			.sum();
	}

	private String collapsedOf(List<SpanRecord> spans) {
		return collapsedOf(spans, SampleKind.CPU);
	}

	private String collapsedOf(List<SpanRecord> spans, SampleKind kind) {
		StringBuilder all = new StringBuilder();
		for (SpanRecord span : spans) {
			all.append(CollapsedStacks.render(InclusiveSamples.of(span, kind), this.profiler.store().frames()));
		}
		return all.toString();
	}

	private List<SpanRecord> awaitSpans(String name, int count) throws InterruptedException {
		return awaitSpans(name, count, Long.MIN_VALUE);
	}

	/**
	 * The finished spans of that name that started at or after {@code sinceEpochNanos},
	 * once all are joined.
	 */
	private List<SpanRecord> awaitSpans(String name, int count, long sinceEpochNanos) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		List<SpanRecord> found = List.of();
		while (System.nanoTime() < deadline) {
			this.profiler.collectNow();
			found = this.profiler.store()
				.recent((span) -> span.name().equals(name) && !span.inFlight()
						&& span.startEpochNanos() >= sinceEpochNanos, 100);
			if (found.size() >= count && this.profiler.completeUpToEpochNanos() > found.get(0).endEpochNanos()) {
				return found;
			}
			Thread.sleep(100);
		}
		throw new AssertionError("Expected " + count + " finished '" + name + "' spans, found " + found.size());
	}

	private CompletableFuture<Integer> getAsync(String path) {
		return this.http
			.sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.discarding())
			.thenApply(HttpResponse::statusCode);
	}

	private int get(String path) throws Exception {
		return this.http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.discarding())
			.statusCode();
	}

}
