package dev.spanprofile.view;

import java.time.Duration;
import java.util.List;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.NameAggregates;
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
import static org.assertj.core.api.Assertions.within;

/**
 * A quote service whose requests mostly wait 20 ms for a downstream read and, now and
 * then, 1.4 s: the names list says how much of each name's time is waiting and on what,
 * and the slow-versus-typical comparison of waits says how much longer slow requests
 * wait, and where.
 */
class NameWaitsViewsTest {

	private static final long MS = 1_000_000L;

	private static final Duration HOUR = Duration.ofHours(1);

	private static final String READ = WaitKind.SOCKET_READ.frameName("localhost:5432");

	private final long now = MonotonicEpoch.nowEpochNanos();

	private SpanProfiler profiler;

	private SpanRecord slowest;

	@Test
	void namesListSaysHowMuchOfEachNamesTimeIsWaitingAndOnWhat() {
		SpanProfileViews views = views(waitsOn());
		NameListView list = (NameListView) views.names(query(null, null, waitsOn()));
		NameWaitsJson waits = name(list.json(), "GET /quotes").waits();
		// 18 × 20 ms + 2 × 1,400 ms waited of 18 × 30 ms + 2 × 1,500 ms: 89.3 % (the
		// durations' sum is read from a histogram of two significant digits).
		assertThat(waits.millis()).isEqualTo(3_160.0);
		assertThat(waits.millisPerRequest()).isEqualTo(158.0);
		assertThat(waits.percent()).isCloseTo(89.3, within(1.0));
		List<NameWaitsJson.Category> on = waits.on();
		assertThat(on).extracting((entry) -> entry.category() + "=" + entry.millis())
			.containsExactly("socket I/O=3160.0");
		assertThat(on.get(0).details()).containsExactly(new NameWaitsJson.Detail("localhost:5432", 3160.0));
		assertThat(on.get(0).otherDetails()).isNull();
		// A name that never waited says so rather than leaving it out.
		NameWaitsJson report = name(list.json(), "GET /report").waits();
		assertThat(report.millis()).isZero();
		assertThat(report.percent()).isZero();
		assertThat(report.on()).isEmpty();

		String html = list.html();
		assertThat(html).contains(">Waiting</th>")
			.contains(">89.")
			.contains("socket I/O 89.")
			.contains("(localhost:5432)")
			.contains("name=GET+%2Fquotes&amp;window=3600s&amp;compare=typical&amp;event=wait")
			.doesNotContain("name=GET+%2Freport&amp;window=3600s&amp;compare=typical&amp;event=wait");
	}

	@Test
	void withoutWaitsTheNamesListHasNoWaitingColumn() {
		SamplerSettings sampler = SamplerSettings.defaults();
		NameListView list = (NameListView) views(sampler).names(query(null, null, sampler));
		assertThat(name(list.json(), "GET /quotes").waits()).isNull();
		assertThat(list.html()).doesNotContain("Waiting");
	}

	@Test
	void slowRequestsWaitLongerInTheReadAndTheDiffSaysHowMuch() {
		SpanProfileViews views = views(waitsOn());
		NameDiffView diff = (NameDiffView) views.names(query("GET /quotes", "wait", waitsOn()));
		NameDiffJson json = diff.json();
		assertThat(json.flameGraphEvent()).isEqualTo("wait");
		assertThat(json.slowSpans()).isEqualTo(2);
		assertThat(json.typicalSpans()).isEqualTo(18);
		// The method that waited, not the JDK's read under it; per slow request, not for
		// one span.
		assertThat(json.largestDifference()).isEqualTo(new LargestDifferenceJson(READ, "com.example.Peer.ask", null,
				1_400.0, 20.0, 1_380.0, "slow requests wait 1,380 ms more in " + READ
						+ " (Peer.ask): 1,400 ms against 20.0 ms in a typical request"));
		assertThat(diff.html()).contains("slow requests wait 1,380 ms more in [socket read localhost:5432] (Peer.ask)")
			.contains("2 requests ≥ 32.3 ms, 2800.0 ms waiting")
			.contains("18 requests &lt; 32.3 ms, 360.0 ms waiting");
		// The page colours the difference per request or as a share of each side's whole:
		// its data carries both sides' request counts and, at the root, both sides' whole
		// weights, and its note says there are two.
		String html = diff.html();
		assertThat(html).contains("\"diff\":{\"slowSpans\":2,\"typicalSpans\":18}")
			.contains("\"v\":[" + diff.diff().tree().totalSamples(0) + ",")
			.contains("\"b\":[" + diff.diff().tree().totalSamples(1) + ",")
			.contains("per request, time waited per request against a typical request")
			.contains("or share of samples");
		assertThat(diff.diff().tree().totalSamples(0)).isEqualTo(2_800 * MS);
		assertThat(diff.diff().tree().totalSamples(1)).isEqualTo(360 * MS);

		// One request against the typical ones says the same of itself.
		NameDiffView one = views.compareWithTypical(ProfileQuery.parse(this.slowest.spanId(), "wait", waitsOn()), HOUR);
		LargestDifferenceJson itself = one.json().largestDifference();
		assertThat(itself.spanMillis()).isEqualTo(1_400.0);
		assertThat(itself.slowMillisPerRequest()).isNull();
		assertThat(itself.summary()).isEqualTo("this request waits 1,380 ms more in " + READ
				+ " (Peer.ask): 1,400 ms against 20.0 ms in a typical request");

		// CPU graphs are compared by colour alone.
		NameDiffView cpu = (NameDiffView) views.names(query("GET /quotes", "cpu", waitsOn()));
		assertThat(cpu.json().largestDifference()).isNull();
	}

	private static NamesQuery query(String name, String event, SamplerSettings sampler) {
		return NamesQuery.parse("1h", name, null, null, (name != null) ? "typical" : null, null, event, sampler, HOUR);
	}

	private static NameSummaryJson name(NameListJson list, String name) {
		return list.names()
			.stream()
			.filter((entry) -> name.equals(entry.name()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + name + " in " + list));
	}

	private static SamplerSettings waitsOn() {
		return SamplerSettings.defaults().withWaitThreshold(Duration.ofMillis(10));
	}

	private SpanProfileViews views(SamplerSettings sampler) {
		SpanProfilerSettings defaults = SpanProfilerSettings.defaults();
		StoreSettings storeSettings = new StoreSettings(1000, Long.MAX_VALUE, false);
		this.profiler = new SpanProfiler(new SpanProfilerSettings(sampler, storeSettings, defaults.dumpInterval()),
				(frames) -> new IdleEngine());
		SpanProfileStore store = this.profiler.store();
		int handle = store.frames().intern("com.example.Quotes.handle", FrameKind.JAVA);
		int ask = store.frames().intern("com.example.Peer.ask", FrameKind.JAVA);
		int jdkRead = store.frames().intern("java.net.Socket$SocketInputStream.read", FrameKind.JAVA);
		int read = store.frames().intern(READ, FrameKind.WAIT);
		for (int i = 0; i < 20; i++) {
			boolean slow = i % 10 == 9;
			SpanRecord span = root(store, "GET /quotes", i, slow ? 1_500 : 30);
			store.addSample(span, SampleKind.CPU, new int[] { handle }, 1);
			store.addSample(span, SampleKind.WAIT, new int[] { handle, ask, jdkRead, read }, (slow ? 1_400 : 20) * MS);
			end(store, span, slow ? 1_500 : 30);
			this.slowest = slow ? span : this.slowest;
		}
		SpanRecord report = root(store, "GET /report", 99, 200);
		store.addSample(report, SampleKind.CPU, new int[] { handle }, 20);
		end(store, report, 200);
		return new SpanProfileViews(this.profiler, new FrameClassifier(List.of("com.example")));
	}

	private SpanRecord root(SpanProfileStore store, String name, int index, long millis) {
		long end = this.now - (100 - index) * 10 * MS;
		return store.spanStarted(String.format("%032x", index + 1), String.format("%016x", index + 1), null, false,
				name, "SERVER", end - millis * MS, "http-" + index);
	}

	private void end(SpanProfileStore store, SpanRecord span, long millis) {
		long end = span.startEpochNanos() + millis * MS;
		store.spanEnded(span.spanId(), span.name(), "OK", end, false);
		NameAggregates aggregates = this.profiler.aggregates();
		aggregates.spanEnded(span.name(), span.spanId(), millis * MS, false, end);
		aggregates.fold(span);
	}

}
