package dev.spanprofile.view;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.AggregateSettings;
import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A name's latency heatmap in its JSON and page, a rectangle of it selected by
 * {@code from}, {@code to} and durations, and that selection compared with the rest: the
 * cells add up to the requests merged, every time.
 * <p>
 * Ten fast requests (20 ms, one failed) end in one minute; five fast and five slow ones
 * (400 ms) five minutes later.
 */
class HeatmapViewsTest {

	private static final long MS = 1_000_000L;

	private static final Duration HOUR = Duration.ofHours(1);

	private static final long NOW = Duration.ofDays(20_000).plusMinutes(30).toNanos();

	private static final long EARLY_MINUTE = NOW - Duration.ofMinutes(10).toNanos();

	private static final long LATE_MINUTE = NOW - Duration.ofMinutes(5).toNanos();

	private final AtomicLong clock = new AtomicLong(NOW);

	private SpanProfileViews views;

	private int ids;

	@BeforeEach
	void requests() {
		SpanProfilerSettings defaults = SpanProfilerSettings.defaults();
		SpanProfiler profiler = new SpanProfiler(new SpanProfilerSettings(SamplerSettings.defaults(),
				new StoreSettings(1000, Long.MAX_VALUE, false), defaults.dumpInterval()), (frames) -> new IdleEngine());
		NameAggregates aggregates = new NameAggregates(AggregateSettings.defaults(), profiler.store().frames(),
				this.clock::get);
		SpanProfileStore store = profiler.store();
		int handle = store.frames().intern("com.example.Owners.handle", FrameKind.JAVA);
		int fast = store.frames().intern("com.example.Owners.cached", FrameKind.JAVA);
		int slow = store.frames().intern("com.example.Owners.query", FrameKind.JAVA);
		for (int i = 0; i < 10; i++) {
			request(store, aggregates, EARLY_MINUTE + i * MS, 20, i == 3, new int[] { handle, fast }, 2);
		}
		for (int i = 0; i < 5; i++) {
			request(store, aggregates, LATE_MINUTE + i * MS, 20, false, new int[] { handle, fast }, 2);
			request(store, aggregates, LATE_MINUTE + (10 + i) * MS, 400, false, new int[] { handle, slow }, 5);
		}
		this.views = new SpanProfileViews(profiler, new FrameClassifier(List.of("com.example")), aggregates);
	}

	private void request(SpanProfileStore store, NameAggregates aggregates, long end, long millis, boolean error,
			int[] stack, int samples) {
		String id = String.format("%016x", ++this.ids);
		SpanRecord span = store.spanStarted(String.format("%032x", this.ids), id, null, false, "GET /owners", "SERVER",
				end - millis * MS, "http-" + this.ids);
		store.addSample(span, SampleKind.CPU, stack, samples);
		store.spanEnded(id, span.name(), error ? "ERROR" : "OK", end, false);
		aggregates.spanEnded(span.name(), id, millis * MS, error, end);
		aggregates.fold(span);
	}

	@Test
	void theNamesJsonCarriesAHeatmapWhoseCountsAddUpToItsRequests() {
		NameProfileJson json = profile(null, null, null, null).json();
		assertThat(json.spans()).isEqualTo(20);
		assertThat(json.selection()).isNull();
		HeatmapJson heatmap = json.heatmap();
		List<String> starts = heatmap.startTimes();
		List<Double> edges = heatmap.bandEdgesMillis();
		List<List<Long>> counts = heatmap.counts();
		List<List<Long>> errors = heatmap.errors();
		// A column per minute of the hour; bands cut to those holding requests: 20 ms's
		// to 400 ms's.
		assertThat(starts).hasSize(60).endsWith(Instant.ofEpochSecond(0, NOW).toString());
		assertThat(counts).hasSize(60);
		assertThat(edges.get(0)).isLessThanOrEqualTo(20.0).isGreaterThan(15.0);
		assertThat(edges.get(edges.size() - 1)).isGreaterThan(400.0).isLessThan(510.0);
		assertThat(counts.stream().flatMap(List::stream).mapToLong(Long::longValue).sum()).isEqualTo(20);
		int early = starts.indexOf(Instant.ofEpochSecond(0, EARLY_MINUTE).toString());
		int late = starts.indexOf(Instant.ofEpochSecond(0, LATE_MINUTE).toString());
		assertThat(counts.get(early)).first().isEqualTo(10L);
		assertThat(counts.get(early).stream().mapToLong(Long::longValue).sum()).isEqualTo(10);
		assertThat(counts.get(late)).first().isEqualTo(5L);
		assertThat(counts.get(late)).last().isEqualTo(5L);
		assertThat(errors.get(early)).first().isEqualTo(1L);
		assertThat(errors.stream().flatMap(List::stream).mapToLong(Long::longValue).sum()).isEqualTo(1);
	}

	@Test
	void aRectangleOfTheHeatmapMergesExactlyTheRequestsOfItsCells() {
		NameProfileJson whole = profile(null, null, null, null).json();
		List<Double> edges = whole.heatmap().bandEdgesMillis();
		// The late minute, from the top band's lower edge up: the five slow requests.
		String from = Instant.ofEpochSecond(0, LATE_MINUTE).toString();
		String to = Instant.ofEpochSecond(0, LATE_MINUTE + Duration.ofMinutes(1).toNanos()).toString();
		String topBand = String.valueOf(edges.get(edges.size() - 2));
		NameProfileView slow = profile(from, to, topBand, null);
		NameProfileJson json = slow.json();
		assertThat(json.spans()).isEqualTo(5);
		assertThat(json.samples()).isEqualTo(25);
		assertThat(json.selection()).isEqualTo(new SelectionJson(from, to, edges.get(edges.size() - 2), null));
		// The selection's keys among the body's, where the page's URL has them.
		assertThat(JsonBodies.map(json)).containsEntry("from", from)
			.containsEntry("to", to)
			.doesNotContainKey("maxDurationMillis");
		assertThat(slow.collapsed()).contains("Owners.query").doesNotContain("Owners.cached");
		// The bottom band of both minutes, its top edge given as the next band's lower
		// edge: that band stays out.
		String secondBand = String.valueOf(edges.get(1));
		NameProfileView fast = profile(Instant.ofEpochSecond(0, EARLY_MINUTE).toString(), to, "0", secondBand);
		assertThat(fast.json()).satisfies((body) -> assertThat(body.spans()).isEqualTo(15),
				(body) -> assertThat(body.samples()).isEqualTo(30));
		// The page draws the heatmap and the selection the JSON serves, as the JSON has
		// them.
		SelectionJson bounded = fast.json().selection();
		assertThat(bounded.maxDurationMillis()).isNotNull();
		for (Record part : List.of(json.heatmap(), json.selection(), bounded)) {
			assertThat(JsonBodies.text(PageData.map(part))).isEqualTo(JsonBodies.text(part));
		}
		assertThat(fast.collapsed()).doesNotContain("Owners.query");
		// The heatmap stays the whole window's, so that another rectangle can be picked.
		assertThat(json.heatmap().counts().stream().flatMap(List::stream).mapToLong(Long::longValue).sum())
			.isEqualTo(20);

		NameDiffView rest = (NameDiffView) this.views.names(NamesQuery.parse("1h", "GET /owners", topBand, null, "rest",
				null, from, to, null, SamplerSettings.defaults(), HOUR));
		NameDiffJson compared = rest.json();
		assertThat(compared.comparison()).isEqualTo("rest");
		assertThat(compared.slowSpans()).isEqualTo(5);
		assertThat(compared.typicalSpans()).isEqualTo(15);
		assertThat(rest.html()).contains("selection vs the rest")
			.contains("\"examined\":\"Selected\"")
			.contains("&amp;from=" + from);
	}

	@Test
	void theNamePageDrawsTheHeatmapWithItsOwnScriptAndOffersTheRestOfASelection() {
		String whole = profile(null, null, null, null).html();
		assertThat(whole).contains("id=\"heatmap-canvas\"")
			.contains("id=\"heatmap-data\"")
			.doesNotContain("id=\"heatmap-compare\"");
		String from = Instant.ofEpochSecond(0, LATE_MINUTE).toString();
		String selected = profile(from, null, "100", null).html();
		assertThat(selected).contains("id=\"heatmap-compare\"")
			.contains("\"selection\":{\"from\":\"" + from)
			.contains("compare=rest");
	}

	@Test
	void aSelectionOutsideTheWindowIsABadRequestThatSaysWhy() {
		String dayBefore = Instant.ofEpochSecond(0, NOW - Duration.ofDays(1).toNanos()).toString();
		String hoursBefore = Instant.ofEpochSecond(0, NOW - Duration.ofHours(20).toNanos()).toString();
		assertThatThrownBy(() -> profile(dayBefore, hoursBefore, null, null))
			.isInstanceOfSatisfying(ViewException.class,
					(ex) -> assertThat(ex.problem()).isEqualTo(ViewException.Problem.BAD_REQUEST))
			.hasMessageContaining("select no minute of the last 1 h");
	}

	@Test
	void theNamesListDrawsEachNamesP99PerMinute() {
		NameListView list = (NameListView) this.views
			.names(NamesQuery.parse("1h", null, null, null, null, null, null, SamplerSettings.defaults(), HOUR));
		List<Double> p99s = list.json().names().get(0).p99MillisPerBucket();
		assertThat(p99s).hasSize(60);
		assertThat(p99s.stream().filter((p99) -> p99 != null).toList()).hasSize(2);
		assertThat(p99s.get(49)).isEqualTo(20.0, org.assertj.core.api.Assertions.within(0.5));
		assertThat(p99s.get(54)).isEqualTo(400.0, org.assertj.core.api.Assertions.within(4.0));
		// Two minutes five apart: two bars, nothing drawn for the quiet minutes between
		// them.
		String spark = list.html().replaceAll("(?s).*?(<svg class=\"spark\".*?</svg>).*", "$1");
		assertThat(spark).contains("highest 400 ms");
		assertThat(spark.split("<rect x=")).hasSize(3);
	}

	private NameProfileView profile(String from, String to, String minMillis, String maxMillis) {
		return (NameProfileView) this.views.names(NamesQuery.parse("1h", "GET /owners", minMillis, maxMillis, null,
				null, from, to, null, SamplerSettings.defaults(), HOUR));
	}

}
