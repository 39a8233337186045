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
 * A request that computes for 300 ms on its thread, then hands off to a pool thread that
 * reads a socket for 1.5 s: its JSON carries the timeline (a lane per thread, the read as
 * one entry), and {@code from}/{@code to} give the graph of a stretch only.
 */
class StretchViewsTest {

	private static final long MS = 1_000_000L;

	private static final String ROOT = "00000000000000e1";

	private static final String CHILD = "00000000000000e2";

	private static final String READ = WaitKind.SOCKET_READ.frameName("localhost:5432");

	private final long start = MonotonicEpoch.nowEpochNanos() - 10_000_000_000L;

	private final SamplerSettings sampler = SamplerSettings.defaults().withWaitThreshold(Duration.ofMillis(10));

	@Test
	@SuppressWarnings("unchecked")
	void theJsonOfASpanCarriesItsTimelineWithALanePerThreadAndEachWaitAsOneEntry() {
		Map<String, Object> json = JsonBodies
			.map(views().profile(ProfileQuery.parse(ROOT, "cpu", this.sampler)).json());
		Map<String, Object> timeline = (Map<String, Object>) json.get("timeline");
		assertThat(timeline).containsEntry("durationMillis", 2_000.0).containsEntry("truncated", false);
		assertThat((List<Map<String, Object>>) timeline.get("lanes")).extracting((lane) -> lane.get("thread"))
			.containsExactly("http-nio-1", "thread 31");
		List<Map<String, Object>> entries = (List<Map<String, Object>>) timeline.get("entries");
		assertThat(entries).hasSize(31);
		assertThat(entries.subList(0, 30)).allSatisfy((entry) -> assertThat(entry).containsEntry("kind", "cpu")
			.containsEntry("lane", 0)
			.doesNotContainKey("label"));
		assertThat(entries.get(30)).containsEntry("kind", "wait")
			.containsEntry("lane", 1)
			.containsEntry("startMillis", 400.0)
			.containsEntry("endMillis", 1_900.0)
			.containsEntry("label", READ);
		assertThat(json).doesNotContainKey("stretch").containsEntry("samples", 30L);
		// The page draws the same timeline: the same keys in the same order, a wait's
		// label and all.
		TimelineJson served = ((SpanProfileJson) views().profile(ProfileQuery.parse(ROOT, "cpu", this.sampler)).json())
			.timeline();
		assertThat(JsonBodies.text(PageData.map(served))).isEqualTo(JsonBodies.text(served)).contains("\"label\"");
	}

	@Test
	@SuppressWarnings("unchecked")
	void aStretchGivesTheGraphOfWhatHappenedInItOnly() {
		SpanProfileViews views = views();
		// The computing part: CPU samples at 10..300 ms; without an event the stretch
		// opens on CPU, not waits.
		Map<String, Object> computing = JsonBodies
			.map(views.profile(ProfileQuery.parse(ROOT, null, this.sampler), Stretch.parse("0", "305")).json());
		assertThat(computing).containsEntry("flameGraphEvent", "cpu").containsEntry("samples", 30L);
		assertThat((Map<String, Object>) computing.get("stretch")).containsEntry("fromMillis", 0.0)
			.containsEntry("toMillis", 305.0);
		assertThat(JsonBodies
			.map(views.profile(ProfileQuery.parse(ROOT, "wait", this.sampler), Stretch.parse("0", "305")).json()))
			.containsEntry("samples", 0L);
		// Half of the read: the graph of waits holds the 750 ms inside the stretch, as
		// one wait.
		Map<String, Object> reading = JsonBodies
			.map(views.profile(ProfileQuery.parse(ROOT, null, this.sampler), Stretch.parse("1150", null)).json());
		assertThat(reading).containsEntry("flameGraphEvent", "wait")
			.containsEntry("samples", 750 * MS)
			.containsEntry("waits", 1L);
		// The same stretch by instants.
		String from = java.time.Instant.ofEpochSecond(0, this.start + 1_150 * MS).toString();
		assertThat(JsonBodies
			.map(views.profile(ProfileQuery.parse(ROOT, "wait", this.sampler), Stretch.parse(from, null)).json()))
			.containsEntry("samples", 750 * MS);
		// Collapsed stacks of a stretch are the stretch's.
		assertThat(
				views.profile(ProfileQuery.parse(ROOT, "cpu", this.sampler), Stretch.parse("100", "200")).collapsed())
			.isEqualTo("app.Orders.compute 10\n");
	}

	@Test
	void badStretchesAreRefusedSayingWhy() {
		SpanProfileViews views = views();
		ProfileQuery query = ProfileQuery.parse(ROOT, "cpu", this.sampler);
		assertThatThrownBy(() -> Stretch.parse("soon", null)).isInstanceOf(ViewException.class)
			.hasMessage("from must be milliseconds from the span's start (e.g. 120.5) or an ISO-8601 instant "
					+ "(e.g. 2026-11-25T10:15:30.120Z), was 'soon'");
		assertThatThrownBy(() -> Stretch.parse("-5", null)).hasMessageStartingWith("from must be between 0 and");
		assertThatThrownBy(() -> Stretch.parse(null, "NaN")).hasMessageStartingWith("to must be between 0 and");
		assertThatThrownBy(() -> Stretch.parse("300", "200")).hasMessage("from must be before to, was from=300 to=200");
		assertThatThrownBy(() -> Stretch.parse("2026-13-45T99:00:00Z", null)).hasMessageContaining("ISO-8601");
		assertThatThrownBy(() -> views.profile(query, Stretch.parse("2500", null))).isInstanceOf(ViewException.class)
			.hasMessageContaining("holds none of the span's time")
			.hasMessageContaining("the span lasted 2,000 ms");
		String before = java.time.Instant.ofEpochSecond(0, this.start - MS).toString();
		assertThatThrownBy(() -> views.profile(query, Stretch.parse(before, null)))
			.hasMessageStartingWith("from is before the span's start");
		assertThatThrownBy(
				() -> views.profile(ProfileQuery.parse("e".repeat(32), "cpu", this.sampler), Stretch.parse("1", "2")))
			.hasMessageStartingWith("from and to select a stretch of one span's timeline");
		assertThat(Stretch.parse(" ", null)).isNull();
	}

	private SpanProfileViews views() {
		SpanProfilerSettings defaults = SpanProfilerSettings.defaults();
		SpanProfiler profiler = new SpanProfiler(new SpanProfilerSettings(this.sampler,
				new StoreSettings(1000, Long.MAX_VALUE, false), defaults.dumpInterval()), (frames) -> new IdleEngine());
		SpanProfileStore store = profiler.store();
		int compute = store.frames().intern("app.Orders.compute", FrameKind.JAVA);
		int fetch = store.frames().intern("app.Stock.fetch", FrameKind.JAVA);
		int read = store.frames().intern(READ, FrameKind.WAIT);
		SpanRecord root = store.spanStarted("e".repeat(32), ROOT, null, false, "GET /orders", "SERVER", this.start,
				"http-nio-1");
		for (int i = 1; i <= 30; i++) {
			store.addSample(root, SampleKind.CPU, new int[] { compute }, 1, this.start + i * 10 * MS, 17, "http-nio-1");
		}
		SpanRecord child = store.spanStarted("e".repeat(32), CHILD, ROOT, true, "stock", "CLIENT",
				this.start + 350 * MS, "pool-1");
		// A thread whose name the tracker never told.
		store.addSample(child, SampleKind.WAIT, new int[] { fetch, read }, 1_500 * MS, this.start + 1_900 * MS, 31,
				null);
		store.spanEnded(CHILD, "stock", "OK", this.start + 1_950 * MS, false);
		store.spanEnded(ROOT, "GET /orders", "OK", this.start + 2_000 * MS, false);
		return new SpanProfileViews(profiler, new FrameClassifier(List.of("app")));
	}

}
