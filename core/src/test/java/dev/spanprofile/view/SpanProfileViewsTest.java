package dev.spanprofile.view;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.pprof.proto.PprofProtos.Profile;
import dev.spanprofile.render.pprof.proto.PprofProtos.Sample;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.profile.FrameKind;
import dev.spanprofile.store.SpanProfileStore;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StoreSettings;
import dev.spanprofile.tracking.MonotonicEpoch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The views over a store filled by hand: what the endpoint would answer, without a
 * server. The profiler is never started, so the engine reports "not started" and an empty
 * profile says so.
 */
class SpanProfileViewsTest {

	private static final String TRACE = "0123456789abcdef0123456789abcdef";

	private static final String ROOT = "00000000000000a1";

	private static final String CHILD = "00000000000000a2";

	private static final String OTHER_ROOT = "00000000000000b1";

	private final long start = MonotonicEpoch.nowEpochNanos() - 5_000_000_000L;

	@Test
	void spanProfileCarriesItsDescendantsSamplesByDefault() {
		SpanProfileViews views = views(false);
		ProfileView view = views.profile(ProfileQuery.parse(ROOT, null, SamplerSettings.defaults()));
		assertThat(view.subject().isTrace()).isFalse();
		assertThat(view.subject().requested().spanId()).isEqualTo(ROOT);
		assertThat(view.emptyReason()).isNull();
		Map<String, Object> json = JsonBodies.map(view.json());
		assertThat(json).containsEntry("engine", "idle")
			.containsEntry("running", false)
			.containsEntry("problem", "not started")
			.containsEntry("flameGraphEvent", "cpu")
			.containsEntry("samples", 5L)
			.doesNotContainKeys("attributedTo", "emptyProfile");
		assertThat(span(json)).containsEntry("spanId", ROOT)
			.containsEntry("name", "GET /orders")
			.containsEntry("samples", 5L)
			.containsEntry("inFlight", false)
			.doesNotContainKey("displayName");
		assertThat((Map<String, Object>) json.get("flameGraph")).containsEntry("name", "GET /orders")
			.containsEntry("value", 5L);
		assertThat(view.collapsed()).isEqualTo("""
				app.Orders.list 2
				app.Orders.list;app.Repo.query 3
				""");
	}

	@Test
	void pprofHoldsEverySampleLabelledWithItsSpan() throws IOException {
		ProfileView view = views(false).profile(ProfileQuery.parse(TRACE, null, SamplerSettings.defaults()));
		Profile profile;
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(view.pprof()))) {
			profile = Profile.parseFrom(in);
		}
		long total = 0;
		for (Sample sample : profile.getSampleList()) {
			total += sample.getValue(0);
		}
		assertThat(total).isEqualTo(5 + 4);
	}

	@Test
	void withRootSpanOnlyAChildIsServedItsLocalRootsGraph() {
		ProfileView view = views(true).profile(ProfileQuery.parse(CHILD, null, SamplerSettings.defaults()));
		assertThat(view.subject().profiled().spanId()).isEqualTo(ROOT);
		Map<String, Object> json = JsonBodies.map(view.json());
		assertThat(json).containsEntry("attributedTo", ROOT)
			.containsEntry("note",
					"With spanprofile.root-span-only=true samples are attributed to the local root " + "span " + ROOT
							+ "; this is its flame graph")
			.containsEntry("samples", 5L);
		assertThat(span(json)).containsEntry("spanId", CHILD).containsEntry("localRootSpanId", ROOT);
	}

	@Test
	@SuppressWarnings("unchecked")
	void traceProfileHasOneChildPerLocalRoot() {
		ProfileView view = views(false)
			.profile(ProfileQuery.parse(TRACE.toUpperCase(), null, SamplerSettings.defaults()));
		assertThat(view.subject().isTrace()).isTrue();
		assertThat(view.subject().parts()).extracting((part) -> part.span().spanId()).containsExactly(ROOT, OTHER_ROOT);
		Map<String, Object> json = JsonBodies.map(view.json());
		assertThat(json).containsEntry("traceId", TRACE).containsEntry("samples", 9L);
		Map<String, Object> root = (Map<String, Object>) json.get("flameGraph");
		assertThat(root).containsEntry("name", "trace " + TRACE).containsEntry("value", 9L);
		assertThat((List<Map<String, Object>>) root.get("children"))
			.extracting((node) -> node.get("name") + "/" + node.get("kind") + "/" + node.get("spanId") + "="
					+ node.get("value"))
			.containsExactly("GET /orders/span/" + ROOT + "=5", "consume orders/span/" + OTHER_ROOT + "=4");
		assertThat(view.collapsed()).isEqualTo("""
				GET /orders;app.Orders.list 2
				GET /orders;app.Orders.list;app.Repo.query 3
				consume orders;app.Queue.poll 4
				""");
		assertThat(view.emptyReason()).isNull();
	}

	@Test
	void unknownSpanOrTraceIsNotFound() {
		SpanProfileViews views = views(false);
		assertThatThrownBy(
				() -> views.profile(ProfileQuery.parse("00000000000000ff", null, SamplerSettings.defaults())))
			.isInstanceOfSatisfying(ViewException.class,
					(ex) -> assertThat(ex.problem()).isEqualTo(ViewException.Problem.NOT_FOUND))
			.hasMessage("No span 00000000000000ff is stored: it was not sampled by the tracer, was evicted, or ran "
					+ "before profiling started");
		assertThatThrownBy(() -> views.profile(ProfileQuery.parse("f".repeat(32), null, SamplerSettings.defaults())))
			.isInstanceOfSatisfying(ViewException.class,
					(ex) -> assertThat(ex.problem()).isEqualTo(ViewException.Problem.NOT_FOUND))
			.hasMessageStartingWith("No span of trace " + "f".repeat(32) + " is stored");
	}

	@Test
	void emptyProfileSaysWhy() {
		SpanProfiler profiler = profiler(false);
		SpanProfileStore store = profiler.store();
		store.spanStarted("e".repeat(32), "00000000000000e1", null, false, "GET /idle", "SERVER", this.start, "main");
		store.spanEnded("00000000000000e1", "GET /idle", "OK", this.start + 50_000_000, false);
		ProfileView view = new SpanProfileViews(profiler, new FrameClassifier(List.of("app")))
			.profile(ProfileQuery.parse("00000000000000e1", null, SamplerSettings.defaults()));
		assertThat(view.emptyReason()).isEqualTo("No samples: the profiler is not running (not started).");
		@SuppressWarnings("unchecked")
		Map<String, Object> empty = (Map<String, Object>) JsonBodies.map(view.json()).get("emptyProfile");
		assertThat(empty).containsEntry("reason", view.emptyReason())
			.containsEntry("durationMillis", 50.0)
			.containsEntry("intervalMillis", 10.0)
			.containsEntry("localRootSpanId", "00000000000000e1");
		assertThat(view.html()).contains("not running (not started)");
	}

	@Test
	void listFiltersByNameAndDurationNewestFirst() {
		SpanProfileViews views = views(false);
		assertThat(views.spans(SpanListQuery.parse(null, null, null)).spans()).extracting(SpanRecord::spanId)
			.containsExactly("00000000000000c1", OTHER_ROOT, CHILD, ROOT);
		assertThat(views.spans(SpanListQuery.parse(null, "ORDERS", null)).spans()).extracting(SpanRecord::spanId)
			.containsExactly(OTHER_ROOT, ROOT);
		// The running span has run for about 4 s; the finished ones lasted 100 ms (root)
		// and 40 ms (child).
		assertThat(views.spans(SpanListQuery.parse(null, null, "60")).spans()).extracting(SpanRecord::spanId)
			.containsExactly("00000000000000c1", OTHER_ROOT, ROOT);
		assertThat(views.spans(SpanListQuery.parse("1", null, null)).spans()).extracting(SpanRecord::spanId)
			.containsExactly("00000000000000c1");
	}

	@Test
	@SuppressWarnings("unchecked")
	void runningSpanWithoutANameIsShownByItsHandler() {
		SpanListView list = views(false).spans(SpanListQuery.parse(null, null, null));
		List<Map<String, Object>> spans = (List<Map<String, Object>>) JsonBodies.map(list.json()).get("spans");
		assertThat(spans.get(0)).containsEntry("name", SpanNames.UNSPECIFIED)
			.containsEntry("inFlight", true)
			.containsEntry("displayName", "running: Checkout.pay on worker-7");
		assertThat(spans.subList(1, spans.size()))
			.allSatisfy((span) -> assertThat(span).doesNotContainKey("displayName"));
		assertThat(list.html()).contains("running: Checkout.pay on worker-7").contains("GET /orders");
	}

	/**
	 * The list's page has its captures and their form when on-demand profiling hands it
	 * its captures, even none; without, neither.
	 */
	@Test
	void theCaptureFormIsOnTheListsPageOnlyWithCaptures() {
		SpanListView list = views(false).spans(SpanListQuery.parse(null, null, null));
		assertThat(list.html()).doesNotContain("<section id=\"captures\"").doesNotContain("<form");
		assertThat(list.withCaptures(List.of()).html()).contains("<section id=\"captures\"")
			.contains("None in progress.")
			.contains("<form id=\"capture-form\"");
		String running = list
			.withCaptures(List.of(Map.of("name", "http get /orders", "count", 20, "captured", 3, "secondsLeft", 552)))
			.html();
		assertThat(running).contains("Capturing &#39;http get /orders&#39;: 3 of 20 requests, 9 min 12 s left")
			.contains("data-name=\"http get /orders\"");
		assertThat(JsonBodies.map(list.json())).doesNotContainKey("captures");
	}

	@Test
	void theEngineRecordLeavesOutTheKeyItHasNoValueFor() {
		// Idle, with a problem and no note: the absent key left out, the others in their
		// order.
		EngineJson engine = views(false).engine();
		assertThat(engine.state().problem()).isNotNull();
		assertThat(engine.state().note()).isNull();
		assertThat(List.copyOf(JsonBodies.map(engine).keySet())).containsExactly("engine", "event", "intervalMillis",
				"running", "problem", "rootSpanOnly", "samples");
		EngineJson noted = new EngineJson(engine.state().withNote("a note"), engine.samples());
		assertThat(List.copyOf(JsonBodies.map(noted).keySet())).containsExactly("engine", "event", "intervalMillis",
				"running", "problem", "note", "rootSpanOnly", "samples");
	}

	@Test
	void spanShowsItsCpuTimeAgainstItsDuration() {
		// Five 10 ms CPU samples in a 100 ms request; four in a 700 ms consumer.
		ProfileView request = views(false).profile(ProfileQuery.parse(ROOT, null, SamplerSettings.defaults()));
		assertThat(JsonBodies.map(request.json())).containsEntry("cpuMillis", 50.0);
		assertThat(request.html()).contains("CPU 50.0 ms of 100 ms");
		ProfileView consumer = views(false).profile(ProfileQuery.parse(OTHER_ROOT, null, SamplerSettings.defaults()));
		assertThat(JsonBodies.map(consumer.json())).containsEntry("cpuMillis", 40.0);
		assertThat(consumer.html()).contains("CPU 40.0 ms of 700 ms");
	}

	@Test
	void spanPageLinksToItsTraceAndFormats() {
		String html = views(false).profile(ProfileQuery.parse(CHILD, null, SamplerSettings.defaults())).html();
		assertThat(html).contains("query").contains(TRACE).contains(CHILD + "?format=pprof");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> span(Map<String, Object> json) {
		return (Map<String, Object>) json.get("span");
	}

	private SpanProfileViews views(boolean rootSpanOnly) {
		return new SpanProfileViews(filled(profiler(rootSpanOnly)), new FrameClassifier(List.of("app")));
	}

	private static SpanProfiler profiler(boolean rootSpanOnly) {
		SpanProfilerSettings defaults = SpanProfilerSettings.defaults();
		return new SpanProfiler(new SpanProfilerSettings(defaults.sampler(),
				new StoreSettings(1000, Long.MAX_VALUE, rootSpanOnly), defaults.dumpInterval()),
				(frames) -> new IdleEngine());
	}

	/**
	 * A trace with two local roots (a request with a child span, a consumer behind a
	 * remote parent) and a running request that Micrometer has not named yet.
	 */
	private SpanProfiler filled(SpanProfiler profiler) {
		SpanProfileStore store = profiler.store();
		int list = store.frames().intern("app.Orders.list", FrameKind.JAVA);
		int query = store.frames().intern("app.Repo.query", FrameKind.JAVA);
		int poll = store.frames().intern("app.Queue.poll", FrameKind.JAVA);
		int servlet = store.frames()
			.intern("org.springframework.web.servlet.DispatcherServlet.doService", FrameKind.JAVA);
		int pay = store.frames().intern("app.Checkout.pay", FrameKind.JAVA);
		boolean rootOnly = profiler.settings().store().rootSpanOnly();
		SpanRecord root = store.spanStarted(TRACE, ROOT, null, false, "GET /orders", "SERVER", this.start, "http-1");
		SpanRecord child = store.spanStarted(TRACE, CHILD, ROOT, true, "query", "INTERNAL", this.start + 10_000_000,
				"http-1");
		store.addSample(root, SampleKind.CPU, new int[] { list }, 2);
		// With root-span-only attribution the attributor gives the child's samples to the
		// local root.
		store.addSample(rootOnly ? root : child, SampleKind.CPU, new int[] { list, query }, 3);
		store.spanEnded(CHILD, "query", "OK", this.start + 50_000_000, false);
		store.spanEnded(ROOT, "GET /orders", "OK", this.start + 100_000_000, false);
		SpanRecord consumer = store.spanStarted(TRACE, OTHER_ROOT, "00000000000000ee", false, "consume orders",
				"CONSUMER", this.start + 200_000_000, "kafka-1");
		store.addSample(consumer, SampleKind.CPU, new int[] { poll }, 4);
		store.spanEnded(OTHER_ROOT, "consume orders", "OK", this.start + 900_000_000, false);
		SpanRecord running = store.spanStarted("c".repeat(32), "00000000000000c1", null, false, SpanNames.UNSPECIFIED,
				"SERVER", this.start + 1_000_000_000, "worker-7");
		store.addSample(running, SampleKind.CPU, new int[] { servlet, pay }, 1);
		return profiler;
	}

}
