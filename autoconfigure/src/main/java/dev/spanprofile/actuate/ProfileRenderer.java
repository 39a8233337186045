package dev.spanprofile.actuate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.EngineStatus;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.render.CollapsedStacks;
import dev.spanprofile.render.FlameGraphTree;
import dev.spanprofile.render.FrameClassifier;
import dev.spanprofile.render.SelfTime;
import dev.spanprofile.render.html.FlameGraphModel;
import dev.spanprofile.render.html.FlameGraphPage;
import dev.spanprofile.render.html.SpanIndexPage;
import dev.spanprofile.render.pprof.PprofProfile;
import dev.spanprofile.sampling.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.StackTree;
import dev.spanprofile.tracking.MonotonicEpoch;

/**
 * Turns spans and profile subjects into the endpoint's HTML, pprof and trace representations. The endpoint decides
 * what to show; this class decides how it looks.
 */
final class ProfileRenderer {

	private final SpanProfiler profiler;

	private final FrameClassifier classifier;

	ProfileRenderer(SpanProfiler profiler, FrameClassifier classifier) {
		this.profiler = profiler;
		this.classifier = classifier;
	}

	FrameClassifier classifier() {
		return this.classifier;
	}

	/** The samples a span's row or page shows: of the primary kind (cpu when sampled). */
	StackTree samplesOf(SpanRecord record) {
		return samplesOf(record, this.profiler.settings().sampler().primaryKind());
	}

	/** The samples of {@code kind} a span's page shows. */
	StackTree samplesOf(SpanRecord record, SampleKind kind) {
		return rootSpanOnly() ? record.ownSamples(kind) : record.inclusiveSamples(kind);
	}

	private Set<SampleKind> sampledKinds() {
		return this.profiler.settings().sampler().kinds();
	}

	String displayName(SpanRecord record, StackTree samples) {
		return SpanNames.display(record, samples, this.profiler.store().frames(), this.classifier);
	}

	// --- the span list ---

	String indexPage(List<SpanRecord> spans, Map<String, Object> engine, String nameFilter) {
		long now = MonotonicEpoch.nowEpochNanos();
		long completeUpTo = this.profiler.completeUpToEpochNanos();
		EngineStatus status = this.profiler.status();
		SpanIndexPage page = SpanIndexPage.create().filter(nameFilter);
		page.fact("engine", status.engine() + ", event " + status.event())
			.fact("interval", EmptyProfiles.millis(intervalMillis()))
			.fact("attribution", rootSpanOnly() ? "to the request's local root span" : "to the innermost span");
		if (engine.get("samples") instanceof Map<?, ?> samples) {
			page.fact("samples", samples.get("attributed") + " in spans, " + samples.get("outsideSpans")
					+ " outside spans, " + samples.get("unknown") + " unknown");
		}
		if (!status.running()) {
			page.note("The profiler is not running: " + status.problem());
		}
		for (SpanRecord record : spans) {
			StackTree samples = samplesOf(record);
			boolean complete = !record.inFlight() && record.endEpochNanos() <= completeUpTo;
			double duration = record.durationNanos(now) / 1_000_000.0;
			List<SelfTime.Entry> top = SelfTime.top(samples, this.profiler.store().frames(), 3);
			String detail = record.kind().toLowerCase(java.util.Locale.ROOT) + " · " + record.threadName()
					+ (record.status().equals("UNSET") ? "" : " · " + record.status());
			page.row(new SpanIndexPage.Row(record.spanId(), record.traceId(), displayName(record, samples), detail,
					record.inFlight(), record.status(), record.startEpochNanos(), duration, samples.totalSamples(),
					top, briefEmptyReason(record, complete, duration), record.retainedAs().id()));
		}
		return page.render();
	}

	private String briefEmptyReason(SpanRecord record, boolean complete, double durationMillis) {
		if (record.inFlight()) {
			return "no sample yet";
		}
		if (!complete) {
			return "collecting samples…";
		}
		if (durationMillis < intervalMillis()) {
			return "no sample: " + EmptyProfiles.millis(durationMillis) + " is shorter than the "
					+ EmptyProfiles.millis(intervalMillis()) + " interval";
		}
		return "no sample: mostly off-CPU";
	}

	// --- one span or trace ---

	String collapsed(ProfileSubject subject) {
		if (!subject.isTrace()) {
			return CollapsedStacks.render(subject.parts().get(0).samples(), this.profiler.store().frames());
		}
		StringBuilder out = new StringBuilder();
		for (ProfileSubject.Part part : subject.parts()) {
			// The span is the first frame, so that tools keep the spans apart.
			String prefix = part.name().replace(';', ':').replace('\n', ' ') + ";";
			for (String line : CollapsedStacks.render(part.samples(), this.profiler.store().frames()).split("\n")) {
				if (!line.isEmpty()) {
					out.append(prefix).append(line).append('\n');
				}
			}
		}
		return out.toString();
	}

	Map<String, Object> traceJson(ProfileSubject subject, Map<String, Object> body) {
		long now = MonotonicEpoch.nowEpochNanos();
		long complete = this.profiler.completeUpToEpochNanos();
		body.put("traceId", subject.traceId());
		List<Map<String, Object>> spans = new ArrayList<>();
		List<Object> children = new ArrayList<>();
		for (ProfileSubject.Part part : subject.parts()) {
			Map<String, Object> span = SpanDescriptions.describe(part.span(), now, complete, !rootSpanOnly(), sampledKinds());
			if (!part.name().equals(part.span().name())) {
				span.put("displayName", part.name());
			}
			spans.add(span);
			Map<String, Object> node = FlameGraphTree.render(part.name(), part.samples(), this.profiler.store().frames());
			node.put("kind", "span");
			node.put("spanId", part.span().spanId());
			children.add(node);
		}
		body.put("spans", spans);
		body.put("samples", subject.samples());
		Map<String, Object> root = new LinkedHashMap<>();
		root.put("name", "trace " + subject.traceId());
		root.put("value", subject.samples());
		root.put("self", 0L);
		root.put("children", children);
		body.put("flameGraph", root);
		return body;
	}

	String html(ProfileSubject subject) {
		long now = MonotonicEpoch.nowEpochNanos();
		EngineStatus status = this.profiler.status();
		FlameGraphPage page;
		if (subject.isTrace()) {
			String title = "trace " + subject.traceId();
			FlameGraphModel.Builder model = FlameGraphModel.builder(title, this.profiler.store().frames(),
					this.classifier);
			for (ProfileSubject.Part part : subject.parts()) {
				model.addSpan(part.name(), part.span().spanId(), part.samples());
			}
			page = FlameGraphPage.of(model.build()).title(title);
			page.fact("trace", subject.traceId()).fact("local root spans", Integer.toString(subject.parts().size()));
			for (ProfileSubject.Part part : subject.parts()) {
				page.spanLink(part.name() + " — " + EmptyProfiles.millis(part.span().durationNanos(now) / 1e6) + ", "
						+ part.samples().totalSamples() + " samples" + (part.span().inFlight() ? ", in flight" : ""),
						part.span().spanId());
			}
			page.inFlight(subject.parts().stream().anyMatch((part) -> part.span().inFlight()));
		}
		else {
			SpanRecord requested = subject.requested();
			ProfileSubject.Part part = subject.parts().get(0);
			SpanRecord profiled = part.span();
			String title = displayName(requested, (requested == profiled) ? part.samples() : samplesOf(requested));
			FlameGraphModel model = FlameGraphModel
				.builder(part.name(), this.profiler.store().frames(), this.classifier)
				.add(part.samples())
				.build();
			page = FlameGraphPage.of(model).title(title).inFlight(profiled.inFlight());
			page.fact("trace", requested.traceId())
				.fact("span", requested.spanId())
				.fact("kind", requested.kind().toLowerCase(java.util.Locale.ROOT))
				.fact("status", requested.status())
				.fact("thread", requested.threadName())
				.fact("started", Instant.ofEpochSecond(0, requested.startEpochNanos()).toString())
				.fact("duration", EmptyProfiles.millis(requested.durationNanos(now) / 1e6)
						+ (requested.inFlight() ? " so far" : ""));
			if (profiled != requested) {
				page.note("Samples are attributed to the request's local root span (spanprofile.root-span-only=true): "
						+ "this is the flame graph of " + part.name() + " (" + profiled.spanId() + "), which contains "
						+ "this span's work.");
			}
			boolean complete = !profiled.inFlight() && profiled.endEpochNanos() <= this.profiler.completeUpToEpochNanos();
			String empty = EmptyProfiles.explain(requested == profiled ? requested : profiled,
					part.samples().totalSamples(), complete, status, intervalMillis(),
					this.profiler.settings().dumpInterval().toMillis(), now);
			if (empty != null) {
				page.note(empty);
				if (!requested.isLocalRoot()) {
					page.link("flame graph of the local root span", requested.localRoot().spanId());
				}
			}
			page.link("whole trace", requested.traceId());
		}
		page.fact("samples", Long.toString(subject.samples()) + ((sampledKinds().size() > 1)
				? " " + subject.kind().id() + " (?event=cpu or ?event=wall picks the other)" : ""))
			.fact("sampling", status.event() + " every " + EmptyProfiles.millis(intervalMillis()) + " · "
					+ status.engine());
		String id = subject.isTrace() ? subject.traceId() : subject.requested().spanId();
		page.link("JSON", id + "?format=json")
			.link("collapsed stacks", id + "?format=collapsed")
			.link("pprof", id + "?format=pprof")
			.sampling(status.event(), intervalMillis())
			.indexHref("../spanprofile");
		return page.render();
	}

	byte[] pprof(ProfileSubject subject) {
		long now = MonotonicEpoch.nowEpochNanos();
		List<PprofProfile.SpanSamples> spans = new ArrayList<>();
		long start = Long.MAX_VALUE;
		long end = 0;
		for (ProfileSubject.Part part : subject.parts()) {
			spans.add(new PprofProfile.SpanSamples(part.span().traceId(), part.span().spanId(), part.name(),
					part.samples()));
			start = Math.min(start, part.span().startEpochNanos());
			end = Math.max(end, part.span().startEpochNanos() + part.span().durationNanos(now));
		}
		return PprofProfile.gzip(spans, this.profiler.store().frames(), this.profiler.status().event(),
				this.profiler.settings().sampler().interval().toNanos(), start, Math.max(0, end - start));
	}

	private boolean rootSpanOnly() {
		return this.profiler.settings().store().rootSpanOnly();
	}

	private double intervalMillis() {
		return this.profiler.settings().sampler().interval().toNanos() / 1_000_000.0;
	}

}
