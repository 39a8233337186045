package dev.spanprofile.render.html;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.render.TimeBreakdown;

/**
 * The interactive flame graph of one span or trace as one self-contained HTML page:
 * canvas drawing, zoom, search, tooltips, a self-time table and a bottom-up view, with no
 * resource from anywhere else. Every text that came from the application is escaped; the
 * profile itself travels as an inert JSON block that the page's script reads.
 */
public final class FlameGraphPage {

	private static final HtmlTemplate TEMPLATE = HtmlTemplate.load("flamegraph.html");

	private final FlameGraphModel model;

	private final PageHeader header = new PageHeader("flame graph");

	private boolean inFlight;

	private final List<PageHeader.Link> spanLinks = new ArrayList<>();

	private double intervalMillis;

	private String unit;

	private String event = "cpu";

	private long[] comparedSpans;

	private Sides sides;

	private String frameSpansHref;

	private final List<KindChoice> kinds = new ArrayList<>();

	private String breakdown = "";

	private String timeline = "";

	private FlameGraphPage(FlameGraphModel model) {
		this.model = model;
	}

	public static FlameGraphPage of(FlameGraphModel model) {
		return new FlameGraphPage(model);
	}

	/** The heading: a span's name, or a trace's description. */
	public FlameGraphPage title(String title) {
		this.header.title(title);
		return this;
	}

	/** Marks a running span: the page offers to follow it as it grows. */
	public FlameGraphPage inFlight(boolean inFlight) {
		this.inFlight = inFlight;
		return this;
	}

	/** One labelled value in the header (trace id, duration, samples...). */
	public FlameGraphPage fact(String label, String value) {
		this.header.fact(label, value);
		return this;
	}

	/** A sentence shown above the graph, e.g. why a profile is empty. */
	public FlameGraphPage note(String note) {
		this.header.note(note);
		return this;
	}

	/**
	 * A link in the header (other formats, the local root's page); {@code href} relative
	 * to this page.
	 */
	public FlameGraphPage link(String label, String href) {
		this.header.link(label, href);
		return this;
	}

	/** A span of a trace, listed with a link to its own page. */
	public FlameGraphPage spanLink(String label, String href) {
		this.spanLinks.add(new PageHeader.Link(label, href));
		return this;
	}

	/** Where the list of spans is, relative to this page. */
	public FlameGraphPage indexHref(String indexHref) {
		this.header.indexHref(indexHref);
		return this;
	}

	/**
	 * What a sample stands for: {@code intervalMillis} of {@code event} time (cpu,
	 * wall...).
	 */
	public FlameGraphPage sampling(String event, double intervalMillis) {
		this.event = event;
		this.intervalMillis = intervalMillis;
		return this;
	}

	/**
	 * Frame widths are weights rather than sample counts: {@code bytes} (allocation) or
	 * {@code nanoseconds} (lock waits); the page shows them in MB and ms.
	 */
	public FlameGraphPage weightedIn(String unit) {
		this.unit = unit;
		this.intervalMillis = 0;
		return this;
	}

	/**
	 * Marks a differential graph: frames are coloured by how many more (or fewer) samples
	 * a request of the examined side has there than one of the compared side.
	 */
	public FlameGraphPage comparison(long examinedSpans, long comparedSpans) {
		this.comparedSpans = new long[] { examinedSpans, comparedSpans };
		return this;
	}

	/**
	 * What the two sides of a differential graph are called in its tooltip (default: Slow
	 * and Typical).
	 */
	public FlameGraphPage sides(String examined, String compared) {
		this.sides = new Sides(examined, compared);
		return this;
	}

	/**
	 * The latency heatmap of a span name above the graph: {@code heatmap} as the name's
	 * JSON has it, {@code selection} the cells the graph shows ({@code null}: all),
	 * {@code hrefs} the pages a selection opens.
	 */
	public FlameGraphPage heatmap(Map<String, Object> heatmap, Map<String, Object> selection,
			Map<String, Object> hrefs) {
		this.timeline = HeatmapHtml.render(heatmap, selection, hrefs);
		return this;
	}

	/**
	 * Clicking a frame offers a link to {@code href} followed by the frame's path (frame
	 * names root first, joined by {@code ;}, URL-encoded): the stored spans with the most
	 * samples there.
	 */
	public FlameGraphPage frameSpansHref(String href) {
		this.frameSpansHref = href;
		return this;
	}

	/**
	 * One choice of the switch between the kinds of samples taken (cpu, wall, alloc,
	 * lock): {@code label} links to {@code href}, relative to this page; {@code current}
	 * marks the kind this page shows. The switch appears once there are two choices.
	 */
	public FlameGraphPage kind(String id, String label, String href, boolean current) {
		this.kinds.add(new KindChoice(id, label, href, current));
		return this;
	}

	/**
	 * Where the span's time went, shown above the graph ({@code soFar} for a running
	 * span).
	 */
	public FlameGraphPage breakdown(TimeBreakdown breakdown, boolean soFar) {
		return breakdown(breakdown, soFar, null);
	}

	/**
	 * As {@link #breakdown(TimeBreakdown, boolean)}, with a sentence under it (how the
	 * request compares with a typical one), or none for {@code null}.
	 */
	public FlameGraphPage breakdown(TimeBreakdown breakdown, boolean soFar, String sentence) {
		this.breakdown = TimeBreakdownHtml.render(breakdown, soFar, null, "", sentence);
		return this;
	}

	/**
	 * Where the time of each side of a comparison went, added up over its requests, above
	 * the graph, with the sentence that says what the examined side spends more on
	 * ({@code null} for none).
	 */
	public FlameGraphPage sideBreakdowns(String examinedSide, TimeBreakdown examined, String comparedSide,
			TimeBreakdown compared, String sentence) {
		this.breakdown = ((examined != null)
				? TimeBreakdownHtml.render(examined, false, examinedSide, "-examined", sentence) : "")
				+ ((compared != null) ? TimeBreakdownHtml.render(compared, false, comparedSide, "-compared",
						(examined == null) ? sentence : null) : "");
		return this;
	}

	/**
	 * The request's timeline above the graph, from its JSON ({@code timeline} of a span's
	 * JSON); {@code stretch} is the part the graph shows ({@code [fromMillis, toMillis]})
	 * or {@code null} for all of it, {@code wholeHref} the page of the whole request.
	 */
	public FlameGraphPage timeline(Map<String, Object> timeline, double[] stretch, String wholeHref) {
		this.timeline = TimelineHtml.render(timeline, stretch, wholeHref);
		return this;
	}

	public String render() {
		Map<String, String> values = new HashMap<>();
		values.put("policy", HtmlEscaper.escape(PageAssets.META_POLICY));
		values.put("style", PageAssets.STYLE);
		values.put("script", PageAssets.FLAME_GRAPH_SCRIPT);
		this.header.putInto(values);
		values.put("badges", this.inFlight ? "<span class=\"badge in-flight\">in flight</span>" : "");
		values.put("breakdown", this.breakdown);
		values.put("timeline", this.timeline);
		values.put("spanLinks",
				this.spanLinks.isEmpty() ? "" : "<section class=\"trace-spans\"><h2>Spans of this trace here</h2>"
						+ Fragments.links("span-links", this.spanLinks) + "</section>");
		values.put("kinds", kindSwitch());
		values.put("data", data());
		return TEMPLATE.render(values);
	}

	private String kindSwitch() {
		if (this.kinds.size() < 2) {
			return "";
		}
		StringBuilder out = new StringBuilder(
				"<span class=\"views kinds\" role=\"group\" aria-label=\"Kind of samples\">");
		for (KindChoice kind : this.kinds) {
			out.append("<a id=\"kind-")
				.append(HtmlEscaper.escape(kind.id()))
				.append("\" href=\"")
				.append(HtmlEscaper.escape(kind.href()))
				.append("\"")
				.append(kind.current() ? " class=\"selected\" aria-current=\"page\"" : "")
				.append(">")
				.append(HtmlEscaper.escape(kind.label()))
				.append("</a>");
		}
		return out.append("</span>").toString();
	}

	private String data() {
		StringBuilder out = new StringBuilder(this.model.nodeCount() * 12 + 1024);
		JsonText json = new JsonText(out);
		json.raw('{').key("title").string(this.header.title());
		json.raw(',').key("event").string(this.event);
		json.raw(',').key("intervalMillis").number(this.intervalMillis);
		if (this.unit != null) {
			json.raw(',').key("unit").string(this.unit);
		}
		json.raw(',').key("inFlight").bool(this.inFlight);
		if (this.comparedSpans != null) {
			json.raw(',').key("diff").raw('{').key("slowSpans").number(this.comparedSpans[0]);
			json.raw(',').key("typicalSpans").number(this.comparedSpans[1]);
			if (this.sides != null) {
				json.raw(',').key("examined").string(this.sides.examined());
				json.raw(',').key("compared").string(this.sides.compared());
			}
			json.raw('}');
		}
		if (this.frameSpansHref != null) {
			json.raw(',').key("frameSpans").string(this.frameSpansHref);
		}
		json.raw(',');
		this.model.writeJson(json);
		json.raw('}');
		return out.toString();
	}

	/** One choice of the kind switch; {@code current} is the kind the page shows. */
	private record KindChoice(String id, String label, String href, boolean current) {
	}

	/** What a differential graph's two sides are called. */
	private record Sides(String examined, String compared) {
	}

}
