package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.render.SelfTime;
import dev.spanprofile.render.html.SpanIndexPage;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;

/** Recent and running spans, newest first, as JSON or as the index page. */
public final class SpanListView {

	private final ViewContext context;

	private final List<SpanRecord> spans;

	private final String nameFilter;

	/** The captures in progress; {@code null} while captures are not available. */
	private final List<Map<String, Object>> captures;

	SpanListView(ViewContext context, List<SpanRecord> spans, String nameFilter) {
		this(context, spans, nameFilter, null);
	}

	private SpanListView(ViewContext context, List<SpanRecord> spans, String nameFilter,
			List<Map<String, Object>> captures) {
		this.context = context;
		this.spans = spans;
		this.nameFilter = nameFilter;
		this.captures = captures;
	}

	/**
	 * The same list showing the captures of on-demand profiling in progress, and on its
	 * page a form that starts one.
	 * @param captures each with its {@code name}, {@code count}, {@code captured} so far
	 * and {@code secondsLeft}, as the endpoint lists them
	 */
	public SpanListView withCaptures(List<Map<String, Object>> captures) {
		return new SpanListView(this.context, this.spans, this.nameFilter, List.copyOf(captures));
	}

	public List<SpanRecord> spans() {
		return this.spans;
	}

	public SpanListJson json() {
		List<SpanJson> spans = new ArrayList<>();
		for (SpanRecord record : this.spans) {
			SpanJson span = this.context.describe(record);
			if (record.inFlight() && SpanNames.isPlaceholder(record.name())) {
				span = span.withDisplayName(this.context.displayName(record, this.context.samplesOf(record)));
			}
			spans.add(span);
		}
		return new SpanListJson(this.context.engine(), (this.captures != null) ? this.captures : List.of(), spans);
	}

	public String html() {
		EngineStatus status = this.context.status();
		SpanIndexPage page = SpanIndexPage.create().filter(this.nameFilter);
		page.fact("engine", status.engine() + ", event " + status.event())
			.fact("interval", EmptyProfiles.millis(this.context.intervalMillis()))
			.fact("attribution",
					this.context.rootSpanOnly() ? "to the request's local root span" : "to the innermost span");
		EngineJson.Samples counts = this.context.engine().samples();
		page.fact("samples", counts.attributed() + " in spans, " + counts.outsideSpans() + " outside spans, "
				+ counts.unknown() + " unknown");
		if (!status.running()) {
			page.note("The profiler is not running: " + status.problem());
		}
		if (this.captures != null) {
			page.captures(this.captures.stream()
				.map((capture) -> new SpanIndexPage.Capture(String.valueOf(capture.get("name")),
						describeCapture(capture)))
				.toList());
		}
		for (SpanRecord record : this.spans) {
			StackTree samples = this.context.samplesOf(record);
			double duration = record.durationNanos(this.context.now()) / 1_000_000.0;
			List<SelfTime.Entry> top = SelfTime.top(samples, this.context.frames(), 3);
			String detail = record.kind().toLowerCase(Locale.ROOT) + " · " + record.threadName()
					+ (record.status().equals("UNSET") ? "" : " · " + record.status()) + forcedMark(record);
			page.row(new SpanIndexPage.Row(record.spanId(), record.traceId(), this.context.displayName(record, samples),
					detail, record.inFlight(), record.status(), record.startEpochNanos(), duration,
					samples.totalSamples(), top, briefEmptyReason(record, duration), record.retainedAs().id(),
					InclusiveSamples.count(record, SampleKind.ALLOC), InclusiveSamples.count(record, SampleKind.LOCK)));
		}
		return page
			.weightColumns(this.context.sampledKinds().contains(SampleKind.ALLOC),
					this.context.sampledKinds().contains(SampleKind.LOCK))
			.render();
	}

	/**
	 * A capture in progress as the page's note says it: its name, requests captured so
	 * far of its count, time left.
	 */
	static String describeCapture(Map<String, Object> capture) {
		Object left = capture.get("secondsLeft");
		long seconds = (left instanceof Number number) ? number.longValue() : 0;
		return "Capturing '" + capture.get("name") + "': " + capture.get("captured") + " of " + capture.get("count")
				+ " requests, " + ((seconds >= 60) ? (seconds / 60) + " min " + (seconds % 60) + " s" : seconds + " s")
				+ " left";
	}

	/** How a forced request is marked in its row, once its retention is released too. */
	private static String forcedMark(SpanRecord record) {
		if (record.capture() != null) {
			return " · captured (" + record.capture() + ")";
		}
		return record.isForced() ? " · forced" : "";
	}

	private String briefEmptyReason(SpanRecord record, double durationMillis) {
		if (record.inFlight()) {
			return "no sample yet";
		}
		if (!this.context.isComplete(record)) {
			return "collecting samples…";
		}
		double interval = this.context.intervalMillis();
		if (durationMillis < interval) {
			return "no sample: " + EmptyProfiles.millis(durationMillis) + " is shorter than the "
					+ EmptyProfiles.millis(interval) + " interval";
		}
		return "no sample: mostly off-CPU";
	}

}
