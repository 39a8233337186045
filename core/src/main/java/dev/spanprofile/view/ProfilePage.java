package dev.spanprofile.view;

import java.time.Instant;
import java.util.Locale;

import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.aggregate.LatencyBands;
import dev.spanprofile.EngineStatus;
import dev.spanprofile.render.CpuShare;
import dev.spanprofile.render.html.FlameGraphLayout;
import dev.spanprofile.render.html.FlameGraphModel;
import dev.spanprofile.render.html.FlameGraphPage;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.store.SpanRecord;

/**
 * The interactive page of a span's or a trace's flame graph, with the facts and links
 * around the graph.
 */
final class ProfilePage {

	/**
	 * Below this many CPU samples a request's page points to its latency band's requests
	 * added up, whose CPU figure rests on more.
	 */
	private static final int FEW_SAMPLES = 10;

	private final ViewContext context;

	private final ProfileView view;

	ProfilePage(ViewContext context, ProfileView view) {
		this.context = context;
		this.view = view;
	}

	String render() {
		ProfileSubject subject = this.view.subject();
		EngineStatus status = this.context.status();
		FlameGraphPage page = subject.isTrace() ? trace(subject) : span(subject);
		double interval = this.context.intervalMillis();
		page.fact(subject.kind().counted() ? "samples" : subject.kind().id(),
				Weights.describe(subject.kind(), subject.samples(), subject.events())
						+ ((subject.kind().counted() && this.context.sampledKinds().size() > 1)
								? " " + subject.kind().id() : ""))
			.fact("sampling", status.event() + " every " + EmptyProfiles.millis(interval) + " · " + status.engine());
		String id = subject.isTrace() ? subject.traceId() : subject.requested().spanId();
		Stretch.Range stretch = this.view.stretch();
		// Switching kinds or formats keeps the stretch on screen.
		String within = (stretch != null)
				? "&from=" + offset(stretch.fromMillis()) + "&to=" + offset(stretch.toMillis()) : "";
		for (SampleKind kind : this.context.sampledKinds()) {
			page.kind(kind.id(), Weights.label(kind), id + "?event=" + kind.id() + within, kind == subject.kind());
		}
		// The other formats of the graph on screen, not of the default kind.
		String event = ((this.context.sampledKinds().size() > 1) ? "&event=" + subject.kind().id() : "") + within;
		page.link("JSON", id + "?format=json" + event)
			.link("collapsed stacks", id + "?format=collapsed" + event)
			.link("pprof", id + "?format=pprof" + event)
			.sampling(status.event(), interval)
			.indexHref("../spanprofile");
		if (!subject.kind().counted()) {
			page.sampling(subject.kind().id(), 0).weightedIn(subject.kind().unit());
		}
		return page.render();
	}

	/** A stretch's bound in a URL: to the microsecond, without a trailing {@code .0}. */
	private static String offset(double millis) {
		return java.math.BigDecimal.valueOf(millis).stripTrailingZeros().toPlainString();
	}

	private FlameGraphPage trace(ProfileSubject subject) {
		String title = "trace " + subject.traceId();
		FlameGraphLayout model = FlameGraphModel.builder(title, this.context.frames(), this.context.classifier());
		for (ProfileSubject.Part part : subject.parts()) {
			model.addSpan(part.name(), part.span().spanId(), part.samples());
		}
		FlameGraphPage page = FlameGraphPage.of(model.build()).title(title);
		page.fact("trace", subject.traceId()).fact("local root spans", Integer.toString(subject.parts().size()));
		for (ProfileSubject.Part part : subject.parts()) {
			page.spanLink(part.name() + " — "
					+ EmptyProfiles.millis(part.span().durationNanos(this.context.now()) / 1e6) + ", "
					+ part.samples().totalSamples() + " samples" + (part.span().inFlight() ? ", in flight" : ""),
					part.span().spanId());
		}
		return page.inFlight(subject.parts().stream().anyMatch((part) -> part.span().inFlight()));
	}

	private FlameGraphPage span(ProfileSubject subject) {
		SpanRecord requested = subject.requested();
		ProfileSubject.Part part = subject.parts().get(0);
		SpanRecord profiled = part.span();
		String title = this.context.displayName(requested,
				(requested == profiled) ? part.samples() : this.context.samplesOf(requested));
		FlameGraphModel model = FlameGraphModel.builder(part.name(), this.context.frames(), this.context.classifier())
			.add(part.samples())
			.build();
		FlameGraphPage page = FlameGraphPage.of(model).title(title).inFlight(profiled.inFlight());
		page.fact("trace", requested.traceId())
			.fact("span", requested.spanId())
			.fact("kind", requested.kind().toLowerCase(Locale.ROOT))
			.fact("status", requested.status())
			.fact("thread", requested.threadName())
			.fact("started", Instant.ofEpochSecond(0, requested.startEpochNanos()).toString())
			.fact("duration", EmptyProfiles.millis(requested.durationNanos(this.context.now()) / 1e6)
					+ (requested.inFlight() ? " so far" : ""));
		if (this.context.firstAfterStart(requested)) {
			// Cold: class loading, lazy initialisation and JIT compilation land here.
			page.fact("first request", "the first " + requested.name() + " after the start, kept with it")
				.link("first requests after the start", "startup/first-requests?format=html");
		}
		SpanCpuTime cpuTime = this.context.cpuTime(profiled);
		CpuShare cpu = this.context.cpuShare(profiled, cpuTime);
		TimeBreakdown breakdown = this.context.timeBreakdown(profiled, cpuTime);
		RequestVsTypical versusTypical = this.view.versusTypical(profiled, cpuTime);
		page.breakdown(breakdown, profiled.inFlight(), (versusTypical != null) ? versusTypical.sentence() + "." : null);
		if (versusTypical != null && versusTypical.compared()) {
			page.link("this request vs typical", requested.spanId() + "?compare=typical"
					+ ((this.context.sampledKinds().size() > 1) ? "&event=" + subject.kind().id() : ""));
		}
		if (breakdown.cpuEstimated() && breakdown.cpuSampleCount() < FEW_SAMPLES && !profiled.inFlight()
				&& profiled == profiled.localRoot()) {
			// One request's few samples say little; its band's requests added up say
			// more.
			long duration = profiled.durationNanos(this.context.now());
			int band = LatencyBands.of(duration);
			page.link("requests of its latency band, added up",
					NameViews.nameHref(profiled.name(), this.context.aggregateWindow())
							+ NameViews.selectionQuery(null, null, LatencyBands.lowerEdgeNanos(band),
									(band + 1 < LatencyBands.count()) ? LatencyBands.upperEdgeNanos(band) : null)
							+ "&format=html");
		}
		Stretch.Range stretch = this.view.stretch();
		String whole = requested.spanId()
				+ ((this.context.sampledKinds().size() > 1) ? "?event=" + subject.kind().id() : "");
		page.timeline(PageData.map(this.context.timeline(profiled)),
				(stretch != null) ? new double[] { stretch.fromMillis(), stretch.toMillis() } : null, whole);
		if (stretch != null) {
			page.fact("stretch", EmptyProfiles.millis(stretch.fromMillis()) + " to "
					+ EmptyProfiles.millis(stretch.toMillis()) + " from the start");
			page.note("The graph shows this stretch of the request only: the samples taken in it, and each wait that "
					+ "overlaps it with the part of it inside the stretch.");
		}
		if (this.view.waitsChosen()) {
			page.note("This request spent more of its time waiting than on a CPU: the graph shows its waits, each "
					+ "ending in what it waited on. CPU above shows its CPU samples.");
		}
		if (cpu != null) {
			page.fact("cpu", cpu + (profiled.inFlight() ? " so far" : ""));
			// Only under the CPU graph: the allocation and lock graphs are not about
			// where time went; with waits recorded, the breakdown above says where it
			// waited.
			if (subject.kind() == SampleKind.CPU && cpu.mostlyOffCpu()
					&& !this.context.sampledKinds().contains(SampleKind.WALL)
					&& !this.context.sampledKinds().contains(SampleKind.WAIT) && this.context.isComplete(profiled)
					&& part.samples().totalSamples() > 0) {
				page.note("Mostly off-CPU: " + cpu + ". The rest of the time this request was waiting (I/O, locks, "
						+ "a pool, other threads), which CPU samples do not see. Sample wall-clock time too "
						+ "(spanprofile.event=cpu,wall) to see where it waited.");
			}
		}
		if (profiled != requested) {
			page.note("Samples are attributed to the request's local root span (spanprofile.root-span-only=true): "
					+ "this is the flame graph of " + part.name() + " (" + profiled.spanId() + "), which contains "
					+ "this span's work.");
		}
		String empty = this.view.emptyReason();
		if (empty != null) {
			page.note(empty);
			if (!requested.isLocalRoot()) {
				page.link("flame graph of the local root span", requested.localRoot().spanId());
			}
		}
		return page.link("whole trace", requested.traceId());
	}

}
