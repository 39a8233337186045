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

/** The JSON of a span's or a trace's flame graph: engine state, the spans' metadata, then the tree. */
final class ProfileJson {

	private final ViewContext context;

	private final ProfileView view;

	ProfileJson(ViewContext context, ProfileView view) {
		this.context = context;
		this.view = view;
	}

	Map<String, Object> render() {
		ProfileSubject subject = this.view.subject();
		Map<String, Object> body = this.context.engine();
		body.put("flameGraphEvent", subject.kind().id());
		if (!subject.kind().counted()) {
			// Frame values are weights, not sample counts.
			body.put("flameGraphUnit", subject.kind().unit());
		}
		if (this.view.waitsChosen()) {
			body.put("flameGraphReason", "no event was asked for and waits explain more of the duration than CPU: "
					+ "event=cpu shows the CPU samples");
		}
		return subject.isTrace() ? trace(subject, body) : span(subject, body);
	}

	private Map<String, Object> span(ProfileSubject subject, Map<String, Object> body) {
		SpanRecord requested = subject.requested();
		ProfileSubject.Part part = subject.parts().get(0);
		SpanRecord profiled = part.span();
		Map<String, Object> span = this.context.describe(requested);
		if (requested == profiled && !part.name().equals(requested.name())) {
			span.put("displayName", part.name());
		}
		body.put("span", span);
		if (profiled != requested) {
			body.put("attributedTo", profiled.spanId());
			body.put("note", "With spanprofile.root-span-only=true samples are attributed to the local root span "
					+ profiled.spanId() + "; this is its flame graph");
		}
		body.put("samples", part.samples().totalSamples());
		if (subject.kind().countsEvents()) {
			// The flame graph weighs waits by time; how many waits make that up is the other half.
			body.put((subject.kind() == SampleKind.LOCK) ? "lockWaits" : "waits", part.samples().events());
		}
		SpanCpuTime cpuTime = this.context.cpuTime(profiled);
		CpuShare cpu = this.context.cpuShare(profiled, cpuTime);
		if (cpu != null) {
			// Latency is wall time: how much of it the CPU samples can explain.
			body.put("cpuMillis", cpu.cpuMillis());
			if (cpuTime.profilerSamples() > 0) {
				// Taken while the profiler's own code ran on the request's threads: not in the graph, not its CPU.
				body.put("profilerSamples", cpuTime.profilerSamples());
			}
		}
		body.put("timeBreakdown", this.context.timeBreakdown(profiled, cpuTime).json());
		String empty = this.view.emptyReason();
		if (empty != null) {
			Map<String, Object> emptyProfile = new LinkedHashMap<>();
			emptyProfile.put("reason", empty);
			emptyProfile.put("durationMillis", profiled.durationNanos(this.context.now()) / 1_000_000.0);
			emptyProfile.put("intervalMillis", this.context.intervalMillis());
			emptyProfile.put("localRootSpanId", requested.localRoot().spanId());
			body.put("emptyProfile", emptyProfile);
		}
		Stretch.Range stretch = this.view.stretch();
		if (stretch != null) {
			Map<String, Object> selected = new LinkedHashMap<>();
			selected.put("fromMillis", RequestTimeline.millis(stretch.fromEpochNanos() - profiled.startEpochNanos()));
			selected.put("toMillis", RequestTimeline.millis(stretch.toEpochNanos() - profiled.startEpochNanos()));
			selected.put("partialWaits", RequestTimeline.PARTIAL_WAITS);
			body.put("stretch", selected);
		}
		body.put("timeline", this.context.timeline(profiled));
		body.put("flameGraph", FlameGraphTree.render(part.name(), part.samples(), this.context.frames()));
		return body;
	}

	private Map<String, Object> trace(ProfileSubject subject, Map<String, Object> body) {
		body.put("traceId", subject.traceId());
		List<Map<String, Object>> spans = new ArrayList<>();
		List<Object> children = new ArrayList<>();
		for (ProfileSubject.Part part : subject.parts()) {
			Map<String, Object> span = this.context.describe(part.span());
			if (!part.name().equals(part.span().name())) {
				span.put("displayName", part.name());
			}
			spans.add(span);
			Map<String, Object> node = FlameGraphTree.render(part.name(), part.samples(), this.context.frames());
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

}
