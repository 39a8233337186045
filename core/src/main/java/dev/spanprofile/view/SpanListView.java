package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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

	SpanListView(ViewContext context, List<SpanRecord> spans, String nameFilter) {
		this.context = context;
		this.spans = spans;
		this.nameFilter = nameFilter;
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
		return new SpanListJson(this.context.engine(), spans);
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
		for (SpanRecord record : this.spans) {
			StackTree samples = this.context.samplesOf(record);
			double duration = record.durationNanos(this.context.now()) / 1_000_000.0;
			List<SelfTime.Entry> top = SelfTime.top(samples, this.context.frames(), 3);
			String detail = record.kind().toLowerCase(Locale.ROOT) + " · " + record.threadName()
					+ (record.status().equals("UNSET") ? "" : " · " + record.status());
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
