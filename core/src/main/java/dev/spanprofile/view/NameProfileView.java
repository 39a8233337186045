package dev.spanprofile.view;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.spanprofile.aggregate.NameProfile;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.FlameGraphTree;
import dev.spanprofile.render.html.FlameGraphModel;
import dev.spanprofile.render.html.FlameGraphPage;
import dev.spanprofile.render.pprof.PprofProfile;
import dev.spanprofile.profile.SampleKind;

/** All requests of one span name merged into one flame graph, optionally within a duration range. */
public final class NameProfileView implements FlameGraphView {

	private final ViewContext context;

	private final NameProfile profile;

	private final Duration window;

	private final SampleKind kind;

	private final boolean ranged;

	NameProfileView(ViewContext context, NameProfile profile, Duration window, SampleKind kind, boolean ranged) {
		this.context = context;
		this.profile = profile;
		this.window = window;
		this.kind = kind;
		this.ranged = ranged;
	}

	public NameProfile profile() {
		return this.profile;
	}

	@Override
	public Map<String, Object> json() {
		Map<String, Object> body = this.context.engine();
		body.put("flameGraphEvent", this.kind.id());
		body.put("name", this.profile.name());
		body.put("windowSeconds", this.window.toSeconds());
		if (this.ranged) {
			// As applied: the requested range widened to latency band edges.
			body.put("minDurationMillis", this.profile.minNanos() / 1e6);
			if (this.profile.maxNanos() != Long.MAX_VALUE) {
				body.put("maxDurationMillis", this.profile.maxNanos() / 1e6);
			}
		}
		body.put("spans", this.profile.spans());
		body.put("unsampledSpans", this.profile.unsampled());
		body.put("samples", this.profile.samples().totalSamples());
		body.put("flameGraph", FlameGraphTree.render(this.profile.name(), this.profile.samples(),
				this.context.frames()));
		return body;
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
			.fact("requests", this.profile.spans() + ((this.profile.unsampled() > 0)
					? " (" + this.profile.unsampled() + " not sampled by tracing)" : ""))
			.fact("samples", this.profile.samples().totalSamples() + " " + this.kind.id());
		if (this.ranged) {
			page.fact("durations", EmptyProfiles.millis(this.profile.minNanos() / 1e6) + " to "
					+ ((this.profile.maxNanos() == Long.MAX_VALUE) ? "any"
							: EmptyProfiles.millis(this.profile.maxNanos() / 1e6))
					+ " (range widened to latency band edges)");
		}
		page.note("Every request of this name in the window, merged. Click a frame for the stored requests with the "
				+ "most samples in it.");
		String event = "&event=" + this.kind.id();
		if (!this.kind.counted()) {
			page.weightedIn(this.kind.unit());
		}
		for (SampleKind sampled : this.context.sampledKinds()) {
			page.kind(sampled.id(), Weights.label(sampled), href + "&format=html&event=" + sampled.id(),
					sampled == this.kind);
		}
		return page.link("slow vs typical", href + "&compare=typical&format=html" + event)
			.link("JSON", href + "&format=json" + event)
			.link("collapsed stacks", href + "&format=collapsed" + event)
			.link("pprof", href + "&format=pprof" + event)
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
