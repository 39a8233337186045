package dev.spanprofile.view;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.spanprofile.aggregate.NameAggregates;
import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.render.html.TablePage;
import dev.spanprofile.render.html.TablePage.Cell;
import dev.spanprofile.startup.StartupRecording;
import dev.spanprofile.store.SpanRecord;

/**
 * The cold first requests after the start, each beside its name's typical duration,
 * linked to its flame graph: a page or JSON.
 */
public final class FirstRequestsView implements View {

	private final ViewContext context;

	private final StartupRecording recording;

	private final NameAggregates aggregates;

	FirstRequestsView(ViewContext context, StartupRecording recording, NameAggregates aggregates) {
		this.context = context;
		this.recording = recording;
		this.aggregates = aggregates;
	}

	@Override
	public Object render(ProfileFormat format) {
		return switch (format) {
			case JSON -> json();
			case HTML -> html();
			default -> throw ViewException.badRequest("The first requests are a list: format=json or format=html");
		};
	}

	public FirstRequestsJson json() {
		return new FirstRequestsJson(this.context.engine(), requests(this.context, this.recording, this.aggregates));
	}

	static List<FirstRequestsJson.Request> requests(ViewContext context, StartupRecording recording,
			NameAggregates aggregates) {
		Duration window = aggregates.settings().window();
		long ready = recording.root().endEpochNanos();
		List<FirstRequestsJson.Request> requests = new ArrayList<>();
		for (SpanRecord root : recording.firstRequests().all()) {
			NameSummary summary = aggregates.summary(root.name(), window);
			requests.add(new FirstRequestsJson.Request(root.name(), root.spanId(), root.traceId(),
					StartupFigures.millis(root.durationNanos(context.now())),
					StartupFigures.millis(root.startEpochNanos() - ready),
					(summary != null && summary.count() > 0) ? StartupFigures.millis(summary.p50Nanos()) : null,
					(summary != null) ? summary.count() : 0, root.spanId()));
		}
		return requests;
	}

	private String html() {
		TablePage page = TablePage.titled("First requests after the start");
		page.note("The first request of each name after the application was ready, kept with its whole profile "
				+ "whatever the store drops since: class loading, lazy initialisation and JIT compilation land in "
				+ "them. Beside each, its name's median.");
		page.link("the start", "../startup?format=html").link("JSON", "first-requests?format=json");
		page.columns(Cell.text("request"), Cell.number("duration"), Cell.number("typical"), Cell.number("after ready"));
		for (FirstRequestsJson.Request request : json().requests()) {
			page.row(List.of(Cell.links().link(request.name(), "../" + request.graph() + "?format=html"),
					Cell.number(StartupView.ms(request.durationMillis())),
					Cell.number((request.typicalMillis() != null) ? StartupView.ms(request.typicalMillis()) : "-")
						.sub(request.requestsOfName() + " requests"),
					Cell.number(StartupView.ms(request.afterReadyMillis()))));
		}
		return page.indexHref("../../spanprofile").render();
	}

}
