package dev.spanprofile.view;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import dev.spanprofile.render.TimeBreakdownJson;

/**
 * The JSON of one span's flame graph: the engine's state, which graph it is, the span,
 * where its time went, and the tree. A key that does not apply to this span or this kind
 * of graph is left out. The tree is a map: its nodes are written by
 * {@link dev.spanprofile.render.FlameGraphTree} for every kind of graph.
 *
 * @param engine the engine's state, its keys at the top level
 * @param samples samples (or weight) in the graph, in the place the engine's counts take
 * in other bodies
 * @param flameGraphEvent the kind of samples in the graph
 * @param flameGraphUnit what a frame's value counts when it is a weight, not samples
 * @param flameGraphReason why this kind was chosen when none was asked for
 * @param span the span asked for
 * @param attributedTo the local root whose graph this is, when samples go to local roots
 * only
 * @param note what that means, when the engine has no note of its own to carry it
 * @param lockWaits how many lock waits make up a graph of lock waits
 * @param waits how many waits make up a graph of waits
 * @param cpuMillis the CPU time the span's samples stand for, when CPU is sampled
 * @param profilerSamples CPU samples that caught the profiler's own code on the request's
 * threads, left out of the graph
 * @param timeBreakdown where the span's time went
 * @param versusTypical for a finished request, it against its name's typical request
 * ({@link RequestVsTypical}), when its name has an aggregate
 * @param emptyProfile why the graph is empty, when it is
 * @param stretch the stretch of the span's life the graph is limited to
 * @param timeline the request's timeline
 * @param flameGraph the tree
 */
public record SpanProfileJson(@JsonUnwrapped EngineState engine, long samples, String flameGraphEvent,
		@JsonInclude(Include.NON_NULL) String flameGraphUnit, @JsonInclude(Include.NON_NULL) String flameGraphReason,
		SpanJson span, @JsonInclude(Include.NON_NULL) String attributedTo, @JsonInclude(Include.NON_NULL) String note,
		@JsonInclude(Include.NON_NULL) Long lockWaits, @JsonInclude(Include.NON_NULL) Long waits,
		@JsonInclude(Include.NON_NULL) Double cpuMillis, @JsonInclude(Include.NON_NULL) Long profilerSamples,
		TimeBreakdownJson timeBreakdown, @JsonInclude(Include.NON_NULL) RequestVsTypicalJson versusTypical,
		@JsonInclude(Include.NON_NULL) EmptyProfile emptyProfile, @JsonInclude(Include.NON_NULL) Stretch stretch,
		TimelineJson timeline, Map<String, Object> flameGraph) implements ProfileBody {

	/**
	 * Why a span's graph is empty, with what a reader needs to judge it.
	 *
	 * @param reason the reason in words ({@link EmptyProfiles})
	 * @param durationMillis the profiled span's duration
	 * @param intervalMillis the sampling interval
	 * @param localRootSpanId the span's local root, whose graph may hold what this one
	 * lacks
	 */
	public record EmptyProfile(String reason, double durationMillis, double intervalMillis, String localRootSpanId) {
	}

	/**
	 * The stretch of the span's life the graph is limited to, in milliseconds from its
	 * start.
	 *
	 * @param fromMillis where it begins
	 * @param toMillis where it ends
	 * @param partialWaits how a wait that overlaps the stretch counts
	 */
	public record Stretch(double fromMillis, double toMillis, String partialWaits) {
	}

}
