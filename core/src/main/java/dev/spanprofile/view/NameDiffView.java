package dev.spanprofile.view;

import java.time.Duration;

import dev.spanprofile.aggregate.ProfileDiff;
import dev.spanprofile.render.BreakdownDifference;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.CpuShare;
import dev.spanprofile.render.FlameGraphTree;
import dev.spanprofile.render.FrameNames;
import dev.spanprofile.render.LargestDifference;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.html.FlameGraphModel;
import dev.spanprofile.render.html.FlameGraphPage;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;

/**
 * A differential flame graph: a name's slow requests (or one request) against its typical
 * ones, or the requests selected on its heatmap against all its others. Sized by the
 * examined side, coloured by the difference per request.
 */
public final class NameDiffView implements FlameGraphView {

	private final ViewContext context;

	private final ProfileDiff diff;

	private final Duration window;

	private final SampleKind kind;

	/** The one span compared, or {@code null} when a name's slow spans are. */
	private final SpanRecord span;

	/**
	 * The selection compared with the rest of the name's requests, as query parameters;
	 * {@code null} when slow requests (or one span) are compared with typical ones.
	 */
	private final String selection;

	/**
	 * The same sides' merged waits and CPU samples, to name callers and where CPU went in
	 * the difference's sentence; either {@code null} where not at hand.
	 */
	private final ProfileDiff waits;

	private final ProfileDiff cpu;

	NameDiffView(ViewContext context, ProfileDiff diff, Duration window, SampleKind kind, SpanRecord span,
			String selection) {
		this(context, diff, window, kind, span, selection, null, null);
	}

	NameDiffView(ViewContext context, ProfileDiff diff, Duration window, SampleKind kind, SpanRecord span,
			String selection, ProfileDiff waits, ProfileDiff cpu) {
		this.waits = (kind == SampleKind.WAIT) ? diff : waits;
		this.cpu = (kind == SampleKind.CPU) ? diff : cpu;
		this.context = context;
		this.diff = diff;
		this.window = window;
		this.kind = kind;
		this.span = span;
		this.selection = selection;
	}

	public ProfileDiff diff() {
		return this.diff;
	}

	@Override
	public NameDiffJson json() {
		return new NameDiffJson(this.context.engine(), this.kind.id(), this.diff.name(),
				(this.span != null) ? this.span.spanId() : null,
				(this.span != null) ? this.span.durationNanos(this.context.now()) / 1e6 : null, this.window.toSeconds(),
				(this.selection != null) ? "rest" : "typical", this.diff.thresholdNanos() / 1e6, this.diff.slowSpans(),
				this.diff.typicalSpans(), largestDifferenceJson(),
				(slowBreakdown() != null) ? slowBreakdown().json() : null,
				(typicalBreakdown() != null) ? typicalBreakdown().json() : null,
				(difference() != null) ? BreakdownDifferenceJson.of(difference()) : null,
				FlameGraphTree.render(this.diff.name(), this.diff.tree(), this.context.frames()));
	}

	/**
	 * Where the examined side's time went, added up; {@code null} where it is one span or
	 * has no request.
	 */
	TimeBreakdown slowBreakdown() {
		return (this.diff.slowBreakdown() != null && this.diff.slowBreakdown().requests() > 0) ? RequestsBreakdowns
			.of(this.diff.slowBreakdown(), this.context.sampledKinds(), this.context.intervalNanos()) : null;
	}

	/**
	 * Where the other side's time went, added up; {@code null} where it has no request.
	 */
	TimeBreakdown typicalBreakdown() {
		return (this.diff.typicalBreakdown() != null && this.diff.typicalBreakdown().requests() > 0)
				? RequestsBreakdowns.of(this.diff.typicalBreakdown(), this.context.sampledKinds(),
						this.context.intervalNanos())
				: null;
	}

	/**
	 * What the examined side spends more on per request than the other; {@code null}
	 * where either side has no request, or the examined side is one span.
	 */
	BreakdownDifference difference() {
		TimeBreakdown slow = slowBreakdown();
		TimeBreakdown typical = typicalBreakdown();
		if (slow == null || typical == null) {
			return null;
		}
		return BreakdownDifference.of((this.selection != null) ? "selected requests" : "slow requests", slow, typical,
				(this.waits != null) ? this.waits.tree() : null, (this.cpu != null) ? this.cpu.tree() : null,
				this.context.frames(), this.context.classifier());
	}

	/**
	 * The largest difference in milliseconds, keyed by what the examined side is;
	 * {@code null} when none.
	 */
	private LargestDifferenceJson largestDifferenceJson() {
		LargestDifference largest = largestDifference();
		if (largest == null) {
			return null;
		}
		double examined = millis(largest.examinedPerRequest());
		return new LargestDifferenceJson(largest.frame(), largest.caller(), (this.span != null) ? examined : null,
				(this.span != null) ? null : examined, millis(largest.typicalPerRequest()),
				millis(largest.morePerRequest()), summary(largest));
	}

	/**
	 * For graphs weighed in nanoseconds (waits, locks): where the slow side waits the
	 * most longer per request; else {@code null}.
	 */
	LargestDifference largestDifference() {
		if (this.kind != SampleKind.WAIT && this.kind != SampleKind.LOCK) {
			return null;
		}
		return LargestDifference.of(this.diff.tree(), this.context.frames(), this.context.classifier(),
				this.diff.slowSpans(), this.diff.typicalSpans());
	}

	/**
	 * {@code slow requests wait 1,380 ms more in [socket read localhost:5432] (PgStream.receive): 1,400 ms against
	 * 20.0 ms in a typical request}.
	 */
	private String summary(LargestDifference largest) {
		String waited = (this.kind == SampleKind.LOCK) ? " more for locks in " : " more in ";
		return ((this.span != null) ? "this request waits " : "slow requests wait ")
				+ CpuShare.millis(largest.morePerRequest() / 1e6) + waited + largest.frame()
				+ ((largest.caller() != null) ? " (" + FrameNames.shortName(largest.caller()) + ")" : "") + ": "
				+ CpuShare.millis(largest.examinedPerRequest() / 1e6) + " against "
				+ CpuShare.millis(largest.typicalPerRequest() / 1e6) + " in a typical request";
	}

	private static double millis(double nanos) {
		return Math.round(nanos / 1_000.0) / 1_000.0;
	}

	/**
	 * A side's total: samples, or what a weighed kind measures ("1,234.5 ms waiting").
	 */
	private String weight(long total) {
		return this.kind.counted() ? total + " samples" : Weights.describe(this.kind, total);
	}

	@Override
	public String collapsed() {
		return CollapsedStacks.render(this.diff.tree(), this.context.frames());
	}

	@Override
	public String html() {
		FlameGraphModel model = FlameGraphModel
			.builder(this.diff.name(), this.context.frames(), this.context.classifier())
			.addComparison(this.diff.tree())
			.build();
		if (this.selection != null) {
			return selectionHtml(model);
		}
		String title = (this.span != null) ? this.diff.name() + " — span " + this.span.spanId() + " vs typical"
				: this.diff.name() + " — slow vs typical";
		String threshold = EmptyProfiles.millis(this.diff.thresholdNanos() / 1e6);
		FlameGraphPage page = FlameGraphPage.of(model)
			.title(title)
			.comparison(this.diff.slowSpans(), this.diff.typicalSpans());
		page.fact("window", "last " + NameViews.describe(this.window))
			.fact(this.span != null ? "this span" : "slow",
					(this.span != null)
							? EmptyProfiles.millis(this.span.durationNanos(this.context.now()) / 1e6) + ", "
									+ weight(this.diff.tree().totalSamples(0))
							: this.diff.slowSpans() + " requests ≥ " + threshold + ", "
									+ weight(this.diff.tree().totalSamples(0)))
			.fact("typical", this.diff.typicalSpans() + " requests < " + threshold + ", "
					+ weight(this.diff.tree().totalSamples(1)));
		// One span's own breakdown is on its page: here the typical side's only.
		BreakdownDifference difference = difference();
		page.sideBreakdowns("Slow requests", (this.span != null) ? null : slowBreakdown(), "Typical requests",
				typicalBreakdown(), (difference != null) ? difference.sentence() + "." : null);
		LargestDifference largest = largestDifference();
		if (largest != null) {
			page.note(summary(largest) + ".");
		}
		String measure = this.kind.counted() ? "samples" : (this.kind == SampleKind.ALLOC) ? "bytes" : "time waited";
		page.note("Widths: the " + (this.span != null ? "span's" : "slow requests'") + " " + measure + ". Colour: "
				+ "red where the slow side spends more, blue where it spends less, grey where they are alike, in one "
				+ "of two normalisations (the switch above the graph says which): per request, " + measure
				+ " per request against a typical request, a frame counting as more or less only where its share "
				+ "of the samples moved the same way (a slow side that is simply longer everywhere stays grey); or "
				+ "share of samples, each frame's part of its side's whole. The tooltip shows both sides.");
		if (!this.kind.counted()) {
			page.weightedIn(this.kind.unit());
		}
		if (this.diff.typicalSpans() == 0) {
			page.note("No typical request in the window to compare with: every request of this name is on the slow "
					+ "side.");
		}
		String href = NameViews.nameHref(this.diff.name(), this.window);
		String event = "&event=" + this.kind.id();
		String self = (this.span != null) ? this.span.spanId() + "?compare=typical" : href + "&compare=typical";
		if (this.span != null) {
			page.link("this span's flame graph", this.span.spanId());
		}
		return page.link("all requests of " + this.diff.name(), href + "&format=html" + event)
			.link("JSON", self + "&format=json" + event)
			.link("collapsed stacks (slow typical)", self + "&format=collapsed" + event)
			.sampling(this.kind.counted() ? this.context.status().event() : this.kind.id(),
					this.kind.counted() ? this.context.intervalMillis() : 0)
			.indexHref("../spanprofile")
			.render();
	}

	/** The heatmap selection against the rest of the name's requests. */
	private String selectionHtml(FlameGraphModel model) {
		FlameGraphPage page = FlameGraphPage.of(model)
			.title(this.diff.name() + " — selection vs the rest")
			.comparison(this.diff.slowSpans(), this.diff.typicalSpans())
			.sides("Selected", "Rest");
		page.fact("window", "last " + NameViews.describe(this.window))
			.fact("selected", this.diff.slowSpans() + " requests, " + weight(this.diff.tree().totalSamples(0)))
			.fact("rest", this.diff.typicalSpans() + " requests, " + weight(this.diff.tree().totalSamples(1)));
		BreakdownDifference difference = difference();
		page.sideBreakdowns("Selected requests", slowBreakdown(), "The rest", typicalBreakdown(),
				(difference != null) ? difference.sentence() + "." : null);
		LargestDifference largest = largestDifference();
		if (largest != null) {
			page.note(summary(largest).replaceFirst("^slow requests", "selected requests") + ".");
		}
		page.note("Widths: the selected requests' samples. Colour: samples per request there against one of the rest "
				+ "— red where the selection spends more, blue where it spends less, grey where they are alike.");
		if (this.diff.typicalSpans() == 0) {
			page.note(
					"The selection holds every request of this name in the window: there is no rest to compare with.");
		}
		if (!this.kind.counted()) {
			page.weightedIn(this.kind.unit());
		}
		String href = NameViews.nameHref(this.diff.name(), this.window);
		String event = "&event=" + this.kind.id();
		return page.link("the selection's flame graph", href + this.selection + "&format=html" + event)
			.link("all requests of " + this.diff.name(), href + "&format=html" + event)
			.link("JSON", href + this.selection + "&compare=rest&format=json" + event)
			.link("collapsed stacks (selected rest)", href + this.selection + "&compare=rest&format=collapsed" + event)
			.sampling(this.kind.counted() ? this.context.status().event() : this.kind.id(),
					this.kind.counted() ? this.context.intervalMillis() : 0)
			.indexHref("../spanprofile")
			.render();
	}

	@Override
	public byte[] pprof() {
		throw ViewException.badRequest("pprof has no differential form: use format=collapsed (stack slow typical) "
				+ "or format=json (value and baseline per frame)");
	}

}
