package dev.spanprofile.view;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.profile.WaitKind;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A request that waited on a database, a lock and a pool, with a few CPU samples and one
 * taken in async-profiler's signal handler: what its JSON and page say about where its 2
 * s went, and which graph they open on.
 */
class TimeBreakdownViewsTest {

	private static final long MS = 1_000_000L;

	private static final String WAITING = "00000000000000d1";

	private static final String BUSY = "00000000000000d2";

	private static final String HANDLER = "libasyncProfiler-5074426373574794542.so.WallClock::signalHandler";

	private final long start = MonotonicEpoch.nowEpochNanos() - 10_000_000_000L;

	@Test
	@SuppressWarnings("unchecked")
	void jsonOfAMostlyWaitingRequestOpensOnItsWaitsAndSaysWhereItsTimeWent() {
		SamplerSettings sampler = waitsOn();
		ProfileView view = views(sampler).profile(ProfileQuery.parse(WAITING, null, sampler));
		Map<String, Object> json = JsonBodies.map(view.json());
		assertThat(json).containsEntry("flameGraphEvent", "wait")
			.containsEntry("flameGraphUnit", "nanoseconds")
			.containsEntry("samples", 1_880 * MS)
			.containsEntry("waits", 6L)
			.containsEntry("cpuMillis", 60.0)
			.containsEntry("profilerSamples", 1L)
			.containsKey("flameGraphReason");
		assertThat((Map<String, Object>) json.get("span")).containsEntry("waitMillis", 1_880.0);
		Map<String, Object> breakdown = (Map<String, Object>) json.get("timeBreakdown");
		assertThat(breakdown).containsEntry("durationMillis", 2_000.0)
			.containsEntry("cpuMillis", 60.0)
			.containsEntry("profilerMillis", 10.0)
			.containsEntry("waitMillis", 1_880.0)
			.containsEntry("unaccountedMillis", 50.0);
		List<Map<String, Object>> waits = (List<Map<String, Object>>) breakdown.get("waits");
		assertThat(waits)
			.extracting((wait) -> wait.get("category") + "=" + wait.get("millis") + "/" + wait.get("count"))
			.containsExactly("socket I/O=1720.0/3", "lock=100.0/1", "park=50.0/1", "GC pause=10.0/1");
		assertThat((List<Map<String, Object>>) waits.get(0).get("on"))
			.extracting((on) -> on.get("detail") + "=" + on.get("millis"))
			.containsExactly("127.0.0.1:5432=1420.0", "10.0.0.7:8080=300.0");
		// Round trips: the reads, not the write.
		assertThat((List<Map<String, Object>>) breakdown.get("roundTrips"))
			.extracting((trips) -> trips.get("peer") + "=" + trips.get("count") + "/" + trips.get("millis"))
			.containsExactly("127.0.0.1:5432=1/1400.0", "10.0.0.7:8080=1/300.0");
		// The graph holds the waits, each ending in what was waited on.
		assertThat(view.collapsed()).contains("com.example.Repo.query;[socket read 127.0.0.1:5432] " + 1_400 * MS)
			.contains("com.example.Stock.take;[monitor enter com.example.Inventory] " + 100 * MS);
	}

	@Test
	void cpuGraphLeavesTheProfilersSignalHandlerOut() {
		SamplerSettings sampler = waitsOn();
		ProfileView cpu = views(sampler).profile(ProfileQuery.parse(WAITING, "cpu", sampler));
		assertThat(JsonBodies.map(cpu.json())).containsEntry("flameGraphEvent", "cpu")
			.containsEntry("samples", 6L)
			.containsEntry("cpuMillis", 60.0)
			.doesNotContainKey("flameGraphReason");
		assertThat(cpu.collapsed()).doesNotContain("signalHandler").contains("com.example.Checkout.pay 6");
		assertThat(cpu.html()).doesNotContain("signalHandler");
	}

	@Test
	void aRequestMostlyOnCpuStillOpensOnCpu() {
		SamplerSettings sampler = waitsOn();
		ProfileView view = views(sampler).profile(ProfileQuery.parse(BUSY, null, sampler));
		assertThat(JsonBodies.map(view.json())).containsEntry("flameGraphEvent", "cpu")
			.doesNotContainKey("flameGraphReason");
		assertThat(view.waitsChosen()).isFalse();
	}

	@Test
	void pageShowsTheBreakdownAndSwitchesBetweenWaitsAndCpu() {
		SamplerSettings sampler = waitsOn();
		String html = views(sampler).profile(ProfileQuery.parse(WAITING, null, sampler)).html();
		assertThat(html).contains("Where the 2,000 ms went")
			.contains("<b>socket I/O</b> <span class=\"time\">1,720 ms</span>")
			.contains("3 waits on 127.0.0.1:5432 1,420 ms, 10.0.0.7:8080 300 ms")
			.contains("<b>unaccounted</b> <span class=\"time\">50.0 ms</span>")
			.contains("<p class=\"round-trips\">1 round trip to 127.0.0.1:5432 (1,400 ms), "
					+ "1 round trip to 10.0.0.7:8080 (300 ms).</p>")
			.contains("id=\"kind-wait\"")
			.contains("Waits (ms)")
			.contains("id=\"kind-cpu\" href=\"" + WAITING + "?event=cpu\"")
			.contains("the graph shows its waits")
			.contains("{\"id\":\"wait\",\"label\":\"waiting\",");
	}

	@Test
	void withoutWaitsTheDefaultStaysCpuAndAskingForWaitsSaysWhyNot() {
		SamplerSettings sampler = SamplerSettings.defaults();
		ProfileView view = views(sampler).profile(ProfileQuery.parse(WAITING, null, sampler));
		assertThat(JsonBodies.map(view.json())).containsEntry("flameGraphEvent", "cpu");
		@SuppressWarnings("unchecked")
		Map<String, Object> breakdown = (Map<String, Object>) JsonBodies.map(view.json()).get("timeBreakdown");
		assertThat(breakdown).containsEntry("waitsRecorded", false).containsEntry("unaccountedMillis", 1_930.0);
		assertThatThrownBy(() -> ProfileQuery.parse(WAITING, "wait", sampler)).isInstanceOf(ViewException.class)
			.hasMessage("No wait samples are taken: recording waits is turned off here");
		assertThatThrownBy(() -> ProfileQuery.parse(WAITING, "waits", waitsOn())).isInstanceOf(ViewException.class)
			.hasMessage("event must be cpu, wall, alloc, lock or wait, was 'waits'");
	}

	private static SamplerSettings waitsOn() {
		return SamplerSettings.defaults().withWaitThreshold(Duration.ofMillis(5));
	}

	private SpanProfileViews views(SamplerSettings sampler) {
		SpanProfilerSettings defaults = SpanProfilerSettings.defaults();
		SpanProfiler profiler = new SpanProfiler(new SpanProfilerSettings(sampler,
				new StoreSettings(1000, Long.MAX_VALUE, false), defaults.dumpInterval()), (frames) -> new IdleEngine());
		SpanProfileStore store = profiler.store();
		int pay = store.frames().intern("com.example.Checkout.pay", FrameKind.JAVA);
		int query = store.frames().intern("com.example.Repo.query", FrameKind.JAVA);
		int take = store.frames().intern("com.example.Stock.take", FrameKind.JAVA);
		int restore = store.frames().intern("libc.so.6.__restore_rt", FrameKind.NATIVE);
		int handler = store.frames().intern(HANDLER, FrameKind.NATIVE);
		SpanRecord waiting = store.spanStarted("d".repeat(32), WAITING, null, false, "GET /checkout", "SERVER",
				this.start, "http-1");
		store.addSample(waiting, SampleKind.CPU, new int[] { pay }, 6);
		store.addSample(waiting, SampleKind.CPU, new int[] { pay, restore, handler }, 1);
		wait(store, waiting, new int[] { pay, query }, WaitKind.SOCKET_READ.frameName("127.0.0.1:5432"), 1_400);
		wait(store, waiting, new int[] { pay, query }, WaitKind.SOCKET_WRITE.frameName("127.0.0.1:5432"), 20);
		wait(store, waiting, new int[] { pay }, WaitKind.SOCKET_READ.frameName("10.0.0.7:8080"), 300);
		wait(store, waiting, new int[] { pay, take }, WaitKind.MONITOR_ENTER.frameName("com.example.Inventory"), 100);
		wait(store, waiting, new int[] { pay }, WaitKind.PARK.frameName(null), 50);
		wait(store, waiting, new int[] { pay }, WaitKind.GC_PAUSE.frameName(null), 10);
		store.spanEnded(WAITING, "GET /checkout", "OK", this.start + 2_000 * MS, false);
		SpanRecord busy = store.spanStarted("e".repeat(32), BUSY, null, false, "GET /report", "SERVER",
				this.start + 3_000 * MS, "http-2");
		store.addSample(busy, SampleKind.CPU, new int[] { pay }, 30);
		wait(store, busy, new int[] { pay }, WaitKind.PARK.frameName(null), 100);
		store.spanEnded(BUSY, "GET /report", "OK", this.start + 3_500 * MS, false);
		return new SpanProfileViews(profiler, new FrameClassifier(List.of("com.example")));
	}

	private static void wait(SpanProfileStore store, SpanRecord span, int[] stack, String leaf, long millis) {
		int[] withLeaf = java.util.Arrays.copyOf(stack, stack.length + 1);
		withLeaf[stack.length] = store.frames().intern(leaf, FrameKind.WAIT);
		store.addSample(span, SampleKind.WAIT, withLeaf, millis * MS);
	}

}
