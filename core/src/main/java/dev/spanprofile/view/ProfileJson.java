package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.render.CpuShare;
import dev.spanprofile.render.FlameGraphTree;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanCpuTime;
import dev.spanprofile.store.SpanRecord;

/**
 * Builds the JSON of a span's or a trace's flame graph: engine state, the spans'
 * metadata, then the tree.
 */
final class ProfileJson {

	private final ViewContext context;

	private final ProfileView view;

	ProfileJson(ViewContext context, ProfileView view) {
		this.context = context;
		this.view = view;
	}

	ProfileBody render() {
		ProfileSubject subject = this.view.subject();
		// Frame values are weights, not sample counts, for waits and allocations.
		String unit = subject.kind().counted() ? null : subject.kind().unit();
		String reason = this.view.waitsChosen() ? "no event was asked for and waits explain more of the duration "
				+ "than CPU: event=cpu shows the CPU samples" : null;
		return subject.isTrace() ? trace(subject, unit, reason) : span(subject, unit, reason);
	}

	private SpanProfileJson span(ProfileSubject subject, String unit, String reason) {
		SpanRecord requested = subject.requested();
		ProfileSubject.Part part = subject.parts().get(0);
		SpanRecord profiled = part.span();
		SpanJson span = this.context.describe(requested);
		if (requested == profiled && !part.name().equals(requested.name())) {
			span = span.withDisplayName(part.name());
		}
		EngineState engine = this.context.engine().state();
		String attributedTo = null;
		String note = null;
		if (profiled != requested) {
			attributedTo = profiled.spanId();
			note = "With spanprofile.root-span-only=true samples are attributed to the local root span "
					+ profiled.spanId() + "; this is its flame graph";
			if (engine.note() != null) {
				// One note per body: this one says more about the graph than the engine's
				// does.
				engine = engine.withNote(note);
				note = null;
			}
		}
		Long lockWaits = null;
		Long waits = null;
		if (subject.kind().countsEvents()) {
			// The flame graph weighs waits by time; how many waits make that up is the
			// other half.
			if (subject.kind() == SampleKind.LOCK) {
				lockWaits = part.samples().events();
			}
			else {
				waits = part.samples().events();
			}
		}
		Double cpuMillis = null;
		Long profilerSamples = null;
		SpanCpuTime cpuTime = this.context.cpuTime(profiled);
		CpuShare cpu = this.context.cpuShare(profiled, cpuTime);
		if (cpu != null) {
			// Latency is wall time: how much of it the CPU samples can explain.
			cpuMillis = cpu.cpuMillis();
			// Taken while the profiler's own code ran on the request's threads: not in
			// the graph, not its CPU.
			profilerSamples = (cpuTime.profilerSamples() > 0) ? cpuTime.profilerSamples() : null;
		}
		RequestVsTypical versusTypical = this.view.versusTypical(profiled, cpuTime);
		return new SpanProfileJson(engine, part.samples().totalSamples(), subject.kind().id(), unit, reason, span,
				attributedTo, note, lockWaits, waits, cpuMillis, profilerSamples,
				this.context.timeBreakdown(profiled, cpuTime).json(),
				(versusTypical != null) ? versusTypical.json() : null, emptyProfile(requested, profiled),
				stretch(profiled), this.context.timeline(profiled),
				FlameGraphTree.render(part.name(), part.samples(), this.context.frames()));
	}

	private SpanProfileJson.EmptyProfile emptyProfile(SpanRecord requested, SpanRecord profiled) {
		String empty = this.view.emptyReason();
		if (empty == null) {
			return null;
		}
		return new SpanProfileJson.EmptyProfile(empty, profiled.durationNanos(this.context.now()) / 1_000_000.0,
				this.context.intervalMillis(), requested.localRoot().spanId());
	}

	private SpanProfileJson.Stretch stretch(SpanRecord profiled) {
		Stretch.Range stretch = this.view.stretch();
		if (stretch == null) {
			return null;
		}
		return new SpanProfileJson.Stretch(
				RequestTimeline.millis(stretch.fromEpochNanos() - profiled.startEpochNanos()),
				RequestTimeline.millis(stretch.toEpochNanos() - profiled.startEpochNanos()),
				RequestTimeline.PARTIAL_WAITS);
	}

	private TraceProfileJson trace(ProfileSubject subject, String unit, String reason) {
		List<SpanJson> spans = new ArrayList<>();
		List<Object> children = new ArrayList<>();
		for (ProfileSubject.Part part : subject.parts()) {
			SpanJson span = this.context.describe(part.span());
			spans.add(part.name().equals(part.span().name()) ? span : span.withDisplayName(part.name()));
			Map<String, Object> node = FlameGraphTree.render(part.name(), part.samples(), this.context.frames());
			node.put("kind", "span");
			node.put("spanId", part.span().spanId());
			children.add(node);
		}
		Map<String, Object> root = new LinkedHashMap<>();
		root.put("name", "trace " + subject.traceId());
		root.put("value", subject.samples());
		root.put("self", 0L);
		root.put("children", children);
		return new TraceProfileJson(this.context.engine().state(), subject.samples(), subject.kind().id(), unit, reason,
				subject.traceId(), spans, root);
	}

}
