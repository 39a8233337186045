package dev.spanprofile.view;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.aggregate.FrameSpans;
import dev.spanprofile.render.FrameNames;
import dev.spanprofile.render.html.TablePage;
import dev.spanprofile.render.html.TablePage.Cell;
import dev.spanprofile.profile.SampleKind;

/** The stored requests of a name with the most samples in one frame of its graph. */
public final class FrameSpansView implements TableView {

	private final ViewContext context;

	private final String name;

	private final List<String> path;

	private final List<FrameSpans.SpanSamples> spans;

	private final Duration window;

	private final SampleKind kind;

	FrameSpansView(ViewContext context, String name, List<String> path, List<FrameSpans.SpanSamples> spans,
			Duration window, SampleKind kind) {
		this.context = context;
		this.name = name;
		this.path = path;
		this.spans = spans;
		this.window = window;
		this.kind = kind;
	}

	@Override
	public FrameSpansJson json() {
		List<FrameSpansJson.Span> spans = new ArrayList<>();
		for (FrameSpans.SpanSamples entry : this.spans) {
			spans.add(new FrameSpansJson.Span(entry.span().spanId(), entry.span().traceId(), entry.samples(),
					entry.span().durationNanos(this.context.now()) / 1e6));
		}
		return new FrameSpansJson(this.name, this.path, this.kind.id(), spans);
	}

	@Override
	public String html() {
		String frame = this.path.isEmpty() ? this.name : this.path.get(this.path.size() - 1);
		TablePage page = TablePage.titled("Requests in " + FrameNames.shortName(frame))
			.fact("span name", this.name)
			.fact("frame", frame)
			.link("back to the graph of " + this.name,
					NameViews.nameHref(this.name, this.window) + "&format=html" + "&event=" + this.kind.id())
			.indexHref("../spanprofile");
		page.note("Stored requests only (the store keeps the most recent ones); the graph counts every request.");
		page.columns(Cell.text("Span"), Cell.number("Samples in this frame"), Cell.number("Duration"),
				Cell.text("Trace"));
		for (FrameSpans.SpanSamples entry : this.spans) {
			page.row(List.of(Cell.links().link(entry.span().spanId(), entry.span().spanId()),
					Cell.number(Long.toString(entry.samples())),
					Cell.number(EmptyProfiles.millis(entry.span().durationNanos(this.context.now()) / 1e6)),
					Cell.links().link(entry.span().traceId(), entry.span().traceId())));
		}
		return page.render();
	}

}
