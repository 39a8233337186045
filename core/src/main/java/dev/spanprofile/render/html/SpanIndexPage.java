package dev.spanprofile.render.html;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import dev.spanprofile.render.FrameNames;
import dev.spanprofile.render.SelfTime;

/**
 * The list of recent and running spans as an HTML page: one row per span with its
 * duration, samples and hottest functions, each linking to its flame graph. The first
 * {@value #LISTED} rows are rendered on the server (readable without script, and saying
 * how many more there are); every span also travels as data, from which the page's script
 * draws the scatter, sorts, filters and lists more rows. A table of 50,000 rows would
 * take the browser seconds to lay out, while the first rows and the data take a fraction
 * of one.
 */
public final class SpanIndexPage {

	/** Below this many samples a span's top frames say how many, not what share. */
	static final int FEW_SAMPLES = 3;

	/**
	 * A frame's self samples as a share of the span's, {@code 75%}; of a span with fewer
	 * than {@link #FEW_SAMPLES}, how many ({@code 1 sample}): one sample is no "100%" of
	 * anything. The page's script says the same (spans/rows.mjs).
	 */
	static String share(long frameSamples, long spanSamples) {
		if (spanSamples < FEW_SAMPLES) {
			return frameSamples + ((frameSamples == 1) ? " sample" : " samples");
		}
		return String.format(Locale.ROOT, "%.0f%%", (spanSamples > 0) ? 100.0 * frameSamples / spanSamples : 0);
	}

	/** Names the capture form offers at most; others can still be typed. */
	static final int CAPTURE_NAMES = 200;

	/** Rows in the table as served; the script lists more on demand. */
	static final int LISTED = 100;

	private static final HtmlTemplate TEMPLATE = HtmlTemplate.load("index.html");

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	/**
	 * Its title and way back are the template's own: the list is where the other pages
	 * lead back to.
	 */
	private final PageHeader header = new PageHeader("Recent spans");

	private final List<Row> rows = new ArrayList<>();

	private String filter = "";

	private boolean allocatedColumn;

	private boolean lockWaitColumn;

	/** The captures in progress; {@code null} while captures are not available. */
	private List<Capture> captures;

	public static SpanIndexPage create() {
		return new SpanIndexPage();
	}

	public SpanIndexPage fact(String label, String value) {
		this.header.fact(label, value);
		return this;
	}

	public SpanIndexPage note(String note) {
		this.header.note(note);
		return this;
	}

	/** The name filter the list was asked with, shown in the filter box. */
	public SpanIndexPage filter(String filter) {
		this.filter = (filter != null) ? filter : "";
		return this;
	}

	/**
	 * Adds sortable columns for the bytes each span allocated and the time it waited for
	 * locks, for when those are sampled.
	 */
	public SpanIndexPage weightColumns(boolean allocated, boolean lockWait) {
		this.allocatedColumn = allocated;
		this.lockWaitColumn = lockWait;
		return this;
	}

	/**
	 * Shows the captures in progress, each with a button that cancels it, and a form that
	 * starts one: for when on-demand profiling is on. Without this the page has neither.
	 */
	public SpanIndexPage captures(List<Capture> running) {
		this.captures = List.copyOf(running);
		return this;
	}

	public SpanIndexPage row(Row row) {
		this.rows.add(row);
		return this;
	}

	public String render() {
		Map<String, String> values = new HashMap<>();
		values.put("policy", HtmlEscaper.escape(PageAssets.INDEX_META_POLICY));
		values.put("style", PageAssets.STYLE);
		values.put("script", PageAssets.INDEX_SCRIPT);
		this.header.putInto(values);
		values.put("captures", capturesSection());
		values.put("filter", HtmlEscaper.escape(this.filter));
		values.put("count", Integer.toString(this.rows.size()));
		values
			.put("weightHeaders",
					(this.allocatedColumn ? "<th scope=\"col\" class=\"num\"><button type=\"button\" "
							+ "data-sort=\"allocated\" title=\"Sort by bytes allocated\">Allocated</button></th>" : "")
							+ (this.lockWaitColumn
									? "<th scope=\"col\" class=\"num\"><button type=\"button\" data-sort=\"lockwait\" "
											+ "title=\"Sort by time waited for locks\">Lock wait</button></th>"
									: ""));
		StringBuilder body = new StringBuilder();
		int listed = Math.min(LISTED, this.rows.size());
		for (Row row : this.rows.subList(0, listed)) {
			appendRow(body, row);
		}
		values.put("data", SpanListData.json(this.rows, listed, this.allocatedColumn, this.lockWaitColumn));
		values.put("listed",
				(listed < this.rows.size()) ? "Listing the first " + listed + " of " + this.rows.size()
						+ " spans (more with script, or narrow the list with the limit, name and minDurationMillis "
						+ "parameters)." : "");
		values.put("listedHidden", (listed < this.rows.size()) ? "" : " hidden");
		if (this.rows.isEmpty()) {
			int columns = 6 + (this.allocatedColumn ? 1 : 0) + (this.lockWaitColumn ? 1 : 0);
			body.append("<tr class=\"empty\"><td colspan=\"" + columns
					+ "\">No span recorded yet. Send a few requests to the " + "application, then reload.</td></tr>");
		}
		values.put("rows", body.toString());
		return TEMPLATE.render(values);
	}

	/**
	 * The captures in progress (readable without script) and, shown by the script, their
	 * cancel buttons and the form that starts one. The form offers the listed names and
	 * takes a URL path pattern too; its count is plain text so that the endpoint, not the
	 * browser, says what is wrong with it.
	 */
	private String capturesSection() {
		if (this.captures == null) {
			return "";
		}
		StringBuilder out = new StringBuilder(
				"<section id=\"captures\" class=\"captures\" aria-labelledby=\"captures-title\">"
						+ "<h2 id=\"captures-title\">Captures</h2><ul id=\"capture-list\">");
		for (Capture capture : this.captures) {
			out.append("<li><span class=\"capture-text\">")
				.append(HtmlEscaper.escape(capture.description()))
				.append("</span> <button type=\"button\" class=\"capture-cancel\" data-name=\"")
				.append(HtmlEscaper.escape(capture.name()))
				.append("\" hidden>Cancel</button></li>");
		}
		if (this.captures.isEmpty()) {
			out.append("<li class=\"none\">None in progress.</li>");
		}
		out.append("</ul><form id=\"capture-form\" class=\"capture-form\" hidden>")
			.append("<label>Capture the next <input id=\"capture-count\" name=\"count\" value=\"20\" size=\"4\" ")
			.append("inputmode=\"numeric\" autocomplete=\"off\"> requests of </label>")
			.append("<label><span class=\"visually-hidden\">span name or URL path pattern</span>")
			.append("<input id=\"capture-name\" name=\"capture\" list=\"capture-names\" size=\"40\" required ")
			.append("placeholder=\"span name or /path/**\" autocomplete=\"off\" spellcheck=\"false\"></label>")
			.append("<datalist id=\"capture-names\">");
		TreeSet<String> names = new TreeSet<>();
		for (Row row : this.rows) {
			if (!row.inFlight()) {
				names.add(row.name());
			}
		}
		names.stream()
			.limit(CAPTURE_NAMES)
			.forEach((name) -> out.append("<option value=\"").append(HtmlEscaper.escape(name)).append("\">"));
		out.append("</datalist><label> within <input id=\"capture-within\" name=\"within\" value=\"10m\" ")
			.append("size=\"5\" autocomplete=\"off\"></label> <button type=\"submit\">Start capture</button>")
			.append("<p id=\"capture-status\" class=\"status\" role=\"status\" aria-live=\"polite\"></p>")
			.append("</form></section>");
		return out.toString();
	}

	private void appendRow(StringBuilder out, Row row) {
		Instant start = Instant.ofEpochSecond(0, row.startEpochNanos());
		out.append("<tr data-start=\"")
			.append(row.startEpochNanos())
			.append("\" data-duration=\"")
			.append(durationText(durationMicros(row.durationMillis())))
			.append("\" data-samples=\"")
			.append(row.samples())
			.append("\" data-allocated=\"")
			.append(row.allocatedBytes())
			.append("\" data-lockwait=\"")
			.append(row.lockWaitNanos())
			.append("\" data-name=\"")
			.append(HtmlEscaper.escape(row.name().toLowerCase(Locale.ROOT)))
			.append("\" data-status=\"")
			.append(HtmlEscaper.escape((row.status() != null) ? row.status() : ""))
			.append("\" data-retained=\"")
			.append(HtmlEscaper.escape(row.retainedAs()))
			.append("\"")
			.append(row.inFlight() ? " class=\"in-flight\"" : "")
			.append(">");
		out.append("<td class=\"start\"><time datetime=\"")
			.append(start)
			.append("\" title=\"")
			.append(start)
			.append("\">")
			.append(TIME.format(start))
			.append("</time></td>");
		out.append("<td class=\"span\"><a class=\"span-link\" href=\"spanprofile/")
			.append(HtmlEscaper.escape(row.spanId()))
			.append("\">")
			.append(HtmlEscaper.escape(row.name()))
			.append("</a>");
		if (row.inFlight()) {
			out.append(" <span class=\"badge in-flight\">in flight</span>");
		}
		if (row.status() != null && row.status().equals("ERROR")) {
			out.append(" <span class=\"badge error\">error</span>");
		}
		if (!row.retainedAs().equals("recent")) {
			out.append(" <span class=\"badge kept\" title=\"Kept beyond the recent requests: ")
				.append(switch (row.retainedAs()) {
					case "slowest" -> "among the slowest of its name";
					case "forced" -> "asked for by its caller (on-demand header or capture)";
					default -> "the latest failure of its name in its minute";
				})
				.append("\">kept · ")
				.append(HtmlEscaper.escape(row.retainedAs()))
				.append("</span>");
		}
		out.append("<div class=\"sub\">").append(HtmlEscaper.escape(row.detail())).append("</div></td>");
		out.append("<td class=\"num duration\">")
			.append(formatMillis(durationMicros(row.durationMillis()) / 1000.0))
			.append("</td>");
		out.append("<td class=\"num samples\">").append(row.samples()).append("</td>");
		if (this.allocatedColumn) {
			out.append("<td class=\"num allocated\">")
				.append(String.format(Locale.ROOT, "%.1f MB", row.allocatedBytes() / (1024.0 * 1024.0)))
				.append("</td>");
		}
		if (this.lockWaitColumn) {
			out.append("<td class=\"num lockwait\">").append(formatMillis(row.lockWaitNanos() / 1e6)).append("</td>");
		}
		out.append("<td class=\"top\">");
		if (row.topFrames().isEmpty()) {
			out.append("<span class=\"none\">").append(HtmlEscaper.escape(row.emptyReason())).append("</span>");
		}
		else {
			out.append("<ol>");
			for (SelfTime.Entry entry : row.topFrames()) {
				out.append("<li title=\"")
					.append(HtmlEscaper.escape(entry.frame()))
					.append("\"><span class=\"pct\">")
					.append(share(entry.samples(), row.samples()))
					.append("</span> ")
					.append(HtmlEscaper.escape(FrameNames.shortName(entry.frame())))
					.append("</li>");
			}
			out.append("</ol>");
		}
		out.append("</td>");
		out.append("<td class=\"trace\"><a href=\"spanprofile/")
			.append(HtmlEscaper.escape(row.traceId()))
			.append("\" title=\"All spans of trace ")
			.append(HtmlEscaper.escape(row.traceId()))
			.append(" in this process\">")
			.append(HtmlEscaper.escape(row.traceId().substring(0, Math.min(8, row.traceId().length()))))
			.append("…</a></td>");
		out.append("</tr>");
	}

	/**
	 * A duration to the microsecond: as precise as a list needs, and an integer, so that
	 * the page's data and its rows carry the same value.
	 */
	static long durationMicros(double millis) {
		return Math.max(0, Math.round(millis * 1000));
	}

	/**
	 * Microseconds as milliseconds with three decimals, the way the page's script writes
	 * them too.
	 */
	private static String durationText(long micros) {
		String fraction = Long.toString(1000 + micros % 1000);
		return (micros / 1000) + "." + fraction.substring(1);
	}

	static String formatMillis(double millis) {
		if (millis >= 100) {
			return String.format(Locale.ROOT, "%,.0f ms", millis);
		}
		return String.format(Locale.ROOT, "%.1f ms", millis);
	}

	/**
	 * A capture in progress.
	 *
	 * @param name the name or path pattern it was started with, what cancelling it takes
	 * @param description what the page says of it: requests captured, time left
	 */
	public record Capture(String name, String description) {

	}

	/**
	 * One span of the list.
	 *
	 * @param spanId the span's id, the target of its row's link
	 * @param traceId its trace's id
	 * @param name what to call it (for a running span whose name is not known yet, a
	 * stand-in)
	 * @param detail a second line: kind, thread, status
	 * @param inFlight whether it still runs
	 * @param status its status code
	 * @param startEpochNanos when it started
	 * @param durationMillis how long it took, or has run so far
	 * @param samples samples attributed to it
	 * @param topFrames its functions with the most self samples
	 * @param emptyReason why it has no samples, shown instead of the functions when it
	 * has none
	 * @param retainedAs why it is still stored: recent, slowest or error
	 * @param allocatedBytes bytes its allocation samples stand for (0 when allocations
	 * are not sampled)
	 * @param lockWaitNanos nanoseconds its lock samples stand for (0 when locks are not
	 * sampled)
	 */
	public record Row(String spanId, String traceId, String name, String detail, boolean inFlight, String status,
			long startEpochNanos, double durationMillis, long samples, List<SelfTime.Entry> topFrames,
			String emptyReason, String retainedAs, long allocatedBytes, long lockWaitNanos) {

		/** A row without allocation or lock weights. */
		public Row(String spanId, String traceId, String name, String detail, boolean inFlight, String status,
				long startEpochNanos, double durationMillis, long samples, List<SelfTime.Entry> topFrames,
				String emptyReason, String retainedAs) {
			this(spanId, traceId, name, detail, inFlight, status, startEpochNanos, durationMillis, samples, topFrames,
					emptyReason, retainedAs, 0, 0);
		}

		/** A row of a recent span. */
		public Row(String spanId, String traceId, String name, String detail, boolean inFlight, String status,
				long startEpochNanos, double durationMillis, long samples, List<SelfTime.Entry> topFrames,
				String emptyReason) {
			this(spanId, traceId, name, detail, inFlight, status, startEpochNanos, durationMillis, samples, topFrames,
					emptyReason, "recent");
		}

	}

}
