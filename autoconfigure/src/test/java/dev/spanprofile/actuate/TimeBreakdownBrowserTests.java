package dev.spanprofile.actuate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.sampling.SampleSink;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplingEngine;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A real request that slept, given known CPU and wait samples (as a wait source would
 * give them: each wait one sample weighed by its nanoseconds, ending in what was waited
 * on): the endpoint's JSON adds its time up, its page opens on the waits, draws the
 * breakdown in Chromium under the page's Content-Security-Policy, and still switches to
 * CPU. The samples are put into the store by hand so that every millisecond asserted is
 * known; the screenshot (target/screenshots/breakdown.png) is docs/images/breakdown.png.
 */
@SpringBootTest(classes = { BurnApplication.class, TimeBreakdownBrowserTests.WaitsRecorded.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.tracing.sampling.probability=1.0",
				"management.endpoints.web.exposure.include=spanprofile",
				"management.otlp.metrics.export.enabled=false" })
@DirtiesContext
class TimeBreakdownBrowserTests {

	private static final long MS = 1_000_000L;

	private static final String FLAME_READY = "!!(window.spanprofile && window.spanprofile.state().readyMillis > 0)";

	private static final String HANDLER = "libasyncProfiler-5074426373574794542.so.WallClock::signalHandler";

	private static Chromium chromium;

	@LocalServerPort
	int port;

	@Autowired
	SpanProfiler profiler;

	@AfterAll
	static void stopBrowser() throws Exception {
		if (chromium != null) {
			chromium.close();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void jsonOfARequestThatMostlyWaitedIsItsWaitsAndAddsItsTimeUp() throws Exception {
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		SpanRecord span = requestWithSamples(client);
		String spanId = span.spanId();
		long durationNanos = span.durationNanos(span.endEpochNanos());

		Map<String, Object> json = client.json("/actuator/spanprofile/" + spanId);
		assertThat(json).containsEntry("flameGraphEvent", "wait")
			.containsEntry("flameGraphUnit", "nanoseconds")
			.containsEntry("profilerSamples", 1);
		assertThat(((Number) json.get("samples")).longValue()).isEqualTo(1_462 * MS);
		Map<String, Object> breakdown = (Map<String, Object>) json.get("timeBreakdown");
		// CPU from the request thread's clock (it slept: a few milliseconds at most, less
		// the profiler's 10 ms of scripted samples), not from the 6 scripted CPU samples.
		assertThat(breakdown).containsEntry("cpuFrom", "thread CPU clocks")
			.containsEntry("profilerMillis", 10.0)
			.containsEntry("waitMillis", 1_462.0);
		double cpuMillis = ((Number) breakdown.get("cpuMillis")).doubleValue();
		assertThat(cpuMillis).isBetween(0.0, 50.0);
		List<Map<String, Object>> waits = (List<Map<String, Object>>) breakdown.get("waits");
		assertThat(waits)
			.extracting((wait) -> wait.get("category") + "=" + wait.get("millis") + "/" + wait.get("count"))
			.containsExactly("socket I/O=1350.0/3", "lock=60.0/1", "park=40.0/1", "GC pause=12.0/1");
		assertThat((List<Map<String, Object>>) waits.get(0).get("on"))
			.extracting((on) -> on.get("detail") + "=" + on.get("millis"))
			.containsExactly("127.0.0.1:5432=1200.0", "10.0.0.7:8080=150.0");
		double duration = ((Number) breakdown.get("durationMillis")).doubleValue();
		assertThat(duration).isCloseTo(durationNanos / 1e6, within(0.001));
		// On Linux the kernel's figures, read with the CPU clocks, measure the rest of
		// the
		// sleep (1.6 s, of which the scripted waits cover 1,462 ms) as short waits and
		// the
		// time the thread waited for a core; elsewhere it is unaccounted. Each figure is
		// rounded to the microsecond.
		double coreWait = millisOrZero(breakdown, "coreWaitMillis");
		double shortWaits = millisOrZero(breakdown, "shortWaitMillis");
		if (breakdown.containsKey("shortWaitMillis")) {
			// Less the time the thread was not yet or no longer in the request's scope
			// (milliseconds, more on a loaded machine).
			assertThat(shortWaits).isBetween(duration - 1_462 - cpuMillis - coreWait - 50, duration - 1_462);
		}
		assertThat(((Number) breakdown.get("unaccountedMillis")).doubleValue())
			.isCloseTo(Math.max(0, duration - cpuMillis - 10 - 1_462 - coreWait - shortWaits), within(0.005));

		// Asked for, CPU is still there, without the profiler's handler; a kind that does
		// not exist is refused.
		Map<String, Object> cpu = client.json("/actuator/spanprofile/" + spanId + "?event=cpu");
		assertThat(cpu).containsEntry("flameGraphEvent", "cpu").containsEntry("samples", 6);
		HttpResponse<String> bad = client.get("/actuator/spanprofile/" + spanId + "?event=waiting", "application/json");
		assertThat(bad.statusCode()).isEqualTo(400);
		assertThat(bad.body()).contains("event must be cpu, wall, alloc, lock or wait, was 'waiting'");
	}

	@Test
	@SuppressWarnings("unchecked")
	void pageOpensOnTheWaitsDrawsTheBreakdownAndSwitchesToCpu() throws Exception {
		chromium = (chromium != null) ? chromium : Chromium.start();
		EndpointClient client = new EndpointClient(this.port, this.profiler);
		SpanRecord span = requestWithSamples(client);
		String spanId = span.spanId();
		double duration = span.durationNanos(span.endEpochNanos()) / 1e6;
		chromium.open(client.url("/actuator/spanprofile/" + spanId), FLAME_READY);
		assertThat(chromium.driver.findElement(By.id("kind-wait")).getDomAttribute("aria-current")).isEqualTo("page");
		assertThat(chromium.driver.findElement(By.id("kind-wait")).getText()).isEqualTo("Waits (ms)");
		WebElement bar = chromium.driver.findElement(By.id("time-bar"));
		double barWidth = bar.getRect().getWidth();
		WebElement socket = bar.findElement(By.cssSelector(".seg.tb-socket-i-o"));
		// Drawn to scale: the socket reads' part of the bar is their share of the
		// duration.
		assertThat(socket.getRect().getWidth() / barWidth).isCloseTo(1_350 / duration, within(0.01));
		assertThat(chromium.driver.findElement(By.id("breakdown")).getText()).contains("socket I/O")
			.contains("127.0.0.1:5432 1,200 ms")
			.contains("unaccounted");
		assertThat(chromium.driver.findElement(By.id("legend")).getText()).contains("waiting");
		// The longest wait heads the self-time table under its whole name.
		// (After the row's sandwich button.)
		assertThat(chromium.driver.findElement(By.cssSelector("#top tbody tr")).getText().replaceFirst("^⇅ ", ""))
			.startsWith("[socket read 127.0.0.1:5432]");
		Map<String, Object> read = chromium.frameRect("[socket read 127.0.0.1:5432]");
		List<Number> pixel = (List<Number>) chromium.script(
				"return window.spanprofile.pixel(arguments[0], arguments[1])", Chromium.centreX(read),
				Chromium.centreY(read));
		assertThat(pixel).extracting(Number::intValue).isNotEqualTo(List.of(255, 255, 255));
		chromium.screenshot("breakdown.png");

		chromium.driver.findElement(By.id("kind-cpu")).click();
		chromium.waitUntil(() -> Boolean.TRUE.equals(chromium.script("return " + FLAME_READY))
				&& chromium.driver.getCurrentUrl().contains("event=cpu"));
		assertThat(((Map<String, Object>) chromium.script("return window.spanprofile.state()")).get("samples"))
			.isEqualTo(6L);
		assertThat(chromium.driver.findElement(By.id("breakdown")).getText()).contains("socket I/O");
		assertThat(chromium.cspViolations()).isEmpty();
		assertThat(chromium.severeConsoleMessages()).isEmpty();
	}

	private static double millisOrZero(Map<String, Object> breakdown, String key) {
		Object millis = breakdown.get(key);
		return (millis != null) ? ((Number) millis).doubleValue() : 0;
	}

	/**
	 * A real request that slept 1.6 s, with the samples of a request that waited on a
	 * database.
	 */
	private SpanRecord requestWithSamples(EndpointClient client) throws Exception {
		Set<String> known = client.spanIds();
		assertThat(client.get("/wait?millis=1600", "text/plain").statusCode()).isEqualTo(200);
		String spanId = (String) client.awaitNewCompleteSpan("http get /wait", known).get("spanId");
		SpanRecord span = this.profiler.store().find(spanId);
		assertThat(span.durationNanos(span.endEpochNanos())).isGreaterThanOrEqualTo(1_600 * MS);
		addSamples(span);
		return span;
	}

	private void addSamples(SpanRecord span) {
		SpanProfileStore store = this.profiler.store();
		FrameTable frames = store.frames();
		int run = frames.intern("java.lang.Thread.run", FrameKind.JAVA);
		int handle = frames.intern("dev.spanprofile.actuate.BurnApplication$BurnController.waitAWhile", FrameKind.JAVA);
		int query = frames.intern("com.example.orders.OrderRepository.findOpen", FrameKind.JAVA);
		int read = frames.intern("org.postgresql.core.PGStream.receiveChar", FrameKind.JAVA);
		int rates = frames.intern("com.example.orders.RatesClient.fetch", FrameKind.JAVA);
		int stock = frames.intern("com.example.orders.Inventory.reserve", FrameKind.JAVA);
		int pool = frames.intern("com.zaxxer.hikari.pool.HikariPool.getConnection", FrameKind.JAVA);
		int restore = frames.intern("libc.so.6.__restore_rt", FrameKind.NATIVE);
		int handler = frames.intern(HANDLER, FrameKind.NATIVE);
		store.addSample(span, SampleKind.CPU, new int[] { run, handle, query }, 4);
		store.addSample(span, SampleKind.CPU, new int[] { run, handle, stock }, 2);
		store.addSample(span, SampleKind.CPU, new int[] { run, handle, restore, handler }, 1);
		wait(store, span, new int[] { run, handle, query, read }, WaitKind.SOCKET_READ.frameName("127.0.0.1:5432"),
				900);
		wait(store, span, new int[] { run, handle, query, read }, WaitKind.SOCKET_READ.frameName("127.0.0.1:5432"),
				300);
		wait(store, span, new int[] { run, handle, rates }, WaitKind.SOCKET_READ.frameName("10.0.0.7:8080"), 150);
		wait(store, span, new int[] { run, handle, stock },
				WaitKind.MONITOR_ENTER.frameName("com.example.orders.Inventory"), 60);
		wait(store, span, new int[] { run, handle, query, pool }, WaitKind.PARK.frameName(null), 40);
		wait(store, span, new int[] { run, handle, query }, WaitKind.GC_PAUSE.frameName(null), 12);
	}

	private static void wait(SpanProfileStore store, SpanRecord span, int[] stack, String leaf, long millis) {
		int[] withLeaf = Arrays.copyOf(stack, stack.length + 1);
		withLeaf[stack.length] = store.frames().intern(leaf, FrameKind.WAIT);
		store.addSample(span, SampleKind.WAIT, withLeaf, millis * MS);
	}

	/**
	 * CPU sampled every 10 ms and waits recorded, by an engine that takes no sample of
	 * its own.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class WaitsRecorded {

		@Bean
		SpanProfiler spanProfiler() {
			SamplerSettings sampler = SamplerSettings.defaults().withWaitThreshold(Duration.ofMillis(10));
			SpanProfiler profiler = new SpanProfiler(
					new SpanProfilerSettings(sampler, StoreSettings.defaults(), Duration.ofMillis(100)),
					(frames) -> new QuietEngine());
			// The breakdown's CPU from the request thread's clock, whatever the scripted
			// samples say.
			profiler.setExactCpuTime(true);
			return profiler;
		}

	}

	private static final class QuietEngine implements SamplingEngine {

		@Override
		public String name() {
			return "quiet";
		}

		@Override
		public void start() {
		}

		@Override
		public long collect(SampleSink sink) {
			return System.nanoTime();
		}

		@Override
		public String activeEvent() {
			return "cpu";
		}

		@Override
		public void close() {
		}

	}

}
