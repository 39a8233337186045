package dev.spanprofile.view;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.aggregate.NameProfile;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.FlameGraphTree;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.html.FlameGraphModel;
import dev.spanprofile.render.html.FlameGraphPage;
import dev.spanprofile.render.pprof.PprofProfile;
import dev.spanprofile.profile.SampleKind;

/**
 * All requests of one span name merged into one flame graph, or those of a selection by
 * end time and duration (a rectangle of the name's latency heatmap, which the page draws
 * above the graph and the JSON carries).
 */
public final class NameProfileView implements FlameGraphView {

	private final ViewContext context;

	private final NameProfile profile;

	private final Duration window;

	private final SampleKind kind;

	private final boolean ranged;

	/** The captures in progress of this name, for the page's notes. */
	private final List<Map<String, Object>> captures;

	NameProfileView(ViewContext context, NameProfile profile, Duration window, SampleKind kind, boolean ranged) {
		this(context, profile, window, kind, ranged, List.of());
	}

	private NameProfileView(ViewContext context, NameProfile profile, Duration window, SampleKind kind, boolean ranged,
			List<Map<String, Object>> captures) {
		this.context = context;
		this.profile = profile;
		this.window = window;
		this.kind = kind;
		this.ranged = ranged;
		this.captures = captures;
	}

	/**
	 * The same view whose page notes the captures of this name in progress, of those the
	 * endpoint lists ({@link SpanListView#withCaptures}).
	 */
	public NameProfileView withCaptures(List<Map<String, Object>> captures) {
		List<Map<String, Object>> ofThisName = captures.stream()
			.filter((capture) -> this.profile.name().equals(capture.get("name")))
			.toList();
		return new NameProfileView(this.context, this.profile, this.window, this.kind, this.ranged, ofThisName);
	}

	public NameProfile profile() {
		return this.profile;
	}

	@Override
	public NameProfileJson json() {
		return new NameProfileJson(this.context.engine().state(), this.profile.samples().totalSamples(), this.kind.id(),
				this.profile.name(), this.window.toSeconds(), this.ranged ? SelectionJson.of(this.profile) : null,
				this.profile.spans(), this.profile.unsampled(), breakdown().json(),
				HeatmapJson.of(this.profile.heatmap()),
				FlameGraphTree.render(this.profile.name(), this.profile.samples(), this.context.frames()));
	}

	/** Where the time of the requests merged went, added up over them. */
	public TimeBreakdown breakdown() {
		return RequestsBreakdowns.of(this.profile.breakdown(), this.context.sampledKinds(),
				this.context.intervalNanos());
	}

	@Override
	public String collapsed() {
		return CollapsedStacks.render(this.profile.samples(), this.context.frames());
	}

	@Override
	public String html() {
		FlameGraphModel model = FlameGraphModel
			.builder(this.profile.name(), this.context.frames(), this.context.classifier())
			.add(this.profile.samples())
			.build();
		String href = NameViews.nameHref(this.profile.name(), this.window);
		FlameGraphPage page = FlameGraphPage.of(model).title(this.profile.name());
		page.fact("window", "last " + NameViews.describe(this.window))
			.fact("requests",
					this.profile.spans() + ((this.profile.unsampled() > 0)
							? " (" + this.profile.unsampled() + " not sampled by tracing)" : ""))
			.fact("samples", this.profile.samples().totalSamples() + " " + this.kind.id());
		String event = "&event=" + this.kind.id();
		Map<String, Object> hrefs = new LinkedHashMap<>();
		hrefs.put("name", href + event);
		hrefs.put("bucketMillis", this.profile.heatmap().bucketNanos() / 1_000_000);
		String selected = "";
		if (this.ranged) {
			page.fact("durations",
					EmptyProfiles.millis(this.profile.minNanos() / 1e6) + " to "
							+ ((this.profile.maxNanos() == Long.MAX_VALUE) ? "any"
									: EmptyProfiles.millis(this.profile.maxNanos() / 1e6))
							+ " (range widened to latency band edges)");
			page.fact("ended", Instant.ofEpochSecond(0, this.profile.fromEpochNanos()) + " to "
					+ Instant.ofEpochSecond(0, this.profile.toEpochNanos()) + " (whole minutes)");
			selected = NameViews.selectionQuery(this.profile.fromEpochNanos(), this.profile.toEpochNanos(),
					this.profile.minNanos(),
					(this.profile.maxNanos() != Long.MAX_VALUE) ? this.profile.maxNanos() : null);
			page.link("compare the selection with the rest", href + selected + "&compare=rest&format=html" + event);
		}
		if (this.profile.breakdown().requests() > 0) {
			page.breakdown(breakdown(), false);
		}
		page.heatmap(PageData.map(HeatmapJson.of(this.profile.heatmap())),
				this.ranged ? PageData.map(SelectionJson.of(this.profile)) : null, hrefs);
		page.note(this.ranged
				? "The requests of this name selected on the heatmap, merged. Click a frame for the "
						+ "stored requests with the most samples in it."
				: "Every request of this name in the window, merged. Click a frame for the stored requests with the "
						+ "most samples in it.");
		for (Map<String, Object> capture : this.captures) {
			page.note(SpanListView.describeCapture(capture));
		}
		if (!this.kind.counted()) {
			page.weightedIn(this.kind.unit());
		}
		for (SampleKind sampled : this.context.sampledKinds()) {
			page.kind(sampled.id(), Weights.label(sampled), href + selected + "&format=html&event=" + sampled.id(),
					sampled == this.kind);
		}
		return page.link("slow vs typical", href + "&compare=typical&format=html" + event)
			.link("JSON", href + selected + "&format=json" + event)
			.link("collapsed stacks", href + selected + "&format=collapsed" + event)
			.link("pprof", href + selected + "&format=pprof" + event)
			.link("all span names", "names?format=html")
			.frameSpansHref(href + "&format=html" + event + "&frame=")
			.sampling(this.kind.counted() ? this.context.status().event() : this.kind.id(),
					this.kind.counted() ? this.context.intervalMillis() : 0)
			.indexHref("../spanprofile")
			.render();
	}

	@Override
	public byte[] pprof() {
		long now = this.context.now();
		return PprofProfile.gzip(
				List.of(new PprofProfile.SpanSamples("", "", this.profile.name(), this.profile.samples())),
				this.context.frames(), this.kind.id(), this.context.periodOf(this.kind), now - this.window.toNanos(),
				this.window.toNanos());
	}

}
