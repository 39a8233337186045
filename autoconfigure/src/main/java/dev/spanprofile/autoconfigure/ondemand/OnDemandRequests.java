package dev.spanprofile.autoconfigure.ondemand;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.store.SpanRecord;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler;

/**
 * What a web stack does for a request that may ask for its profile, in two steps around
 * the server observation that starts the request's span: {@link #beforeSpan} decides and
 * arms the sampler, {@link #afterSpanStarted} has the started span kept and says what the
 * response carries. The web stacks' filters only move headers in and out.
 */
public final class OnDemandRequests {

	/** The {@code Server-Timing} metric name. */
	static final String METRIC = "spanprofile";

	private final OnDemandGate gate;

	private final String header;

	private final SpanProfiler profiler;

	private final GraphLink link;

	private final RequestCaptures captures;

	/**
	 * @param link where the flame graphs are served
	 */
	OnDemandRequests(OnDemandGate gate, String header, SpanProfiler profiler, GraphLink link,
			RequestCaptures captures) {
		this.gate = gate;
		this.header = header;
		this.profiler = profiler;
		this.link = link;
		this.captures = captures;
	}

	/** The request header that asks for a profile. */
	public String header() {
		return this.header;
	}

	/**
	 * Whether a request without the header may be forced now: a capture runs. One
	 * volatile read.
	 */
	public boolean capturing() {
		return this.captures.capturing();
	}

	/**
	 * Before the request's span starts: decide, and for a forced request arm the sampler
	 * on this thread ({@link ForcedSampling#disarm()} once the request is through). A
	 * request a capture takes is forced too, and its claim settled by
	 * {@link #requestHandled} (or given back with {@link Forcing#giveBack()} when it
	 * never got there).
	 * @param headerValue the header's value, {@code null} when absent
	 * @param method the request's method
	 * @param path its path within the application
	 */
	public Forcing beforeSpan(String headerValue, String remoteAddress, String method, String path) {
		OnDemandGate.Decision decision = (headerValue != null) ? this.gate.decide(headerValue, remoteAddress)
				: OnDemandGate.Decision.IGNORED;
		RequestCaptures.Claim claim = null;
		if (decision != OnDemandGate.Decision.FORCED) {
			claim = this.captures.claim(method, path);
			if (claim != null) {
				decision = OnDemandGate.Decision.FORCED;
			}
		}
		if (decision == OnDemandGate.Decision.FORCED) {
			ForcedSampling.arm();
		}
		return new Forcing(decision, claim);
	}

	/**
	 * What {@link #beforeSpan} decided for a request.
	 *
	 * @param decision whether it is forced
	 * @param claim the capture's claim on it, {@code null} when no capture took it
	 */
	public record Forcing(OnDemandGate.Decision decision, RequestCaptures.Claim claim) {

		/**
		 * A captured request that ends without being {@link #requestHandled handled} (an
		 * earlier filter answered it) gives its place back; a no-op once settled.
		 */
		public void giveBack() {
			if (this.claim != null) {
				this.claim.settle(false);
			}
		}

	}

	/**
	 * Once the forced request's span started: keep it when the request asked with its
	 * header (a captured one waits for its route: {@link #requestHandled}), and answer
	 * what the response's headers say.
	 * @param observation the request's server observation, {@code null} when none started
	 * @param forcing what {@link #beforeSpan} decided
	 * @param contextPath the request's context path, {@code ""} for none
	 * @param host the host the request was sent to
	 */
	public Answer afterSpanStarted(Observation.Context observation, Forcing forcing, String contextPath, String host) {
		ForcedSampling.disarm();
		String spanId = sampledSpanId(observation);
		SpanRecord record = (spanId != null) ? this.profiler.store().find(spanId) : null;
		if (record == null) {
			forcing.giveBack();
			return notProfiled(this.profiler.state().isRunning() ? "not traced" : "profiler not running");
		}
		if (forcing.claim() == null) {
			this.profiler.store().keepWhenEnded(record);
		}
		String root = record.localRoot().spanId();
		return new Answer(METRIC + ";desc=\"" + root + "\"",
				"<" + this.link.of(root, contextPath, host) + ">; rel=\"related\"; title=\"flame graph\"");
	}

	/**
	 * A captured request, once the application chose its handler (before its span ends):
	 * kept and counted when the handler's route is the one the capture asked for, else
	 * its place given back.
	 * @param observation the request's server observation
	 * @param route the handler's path pattern, {@code null} when none was chosen
	 */
	public void requestHandled(Observation.Context observation, Forcing forcing, String route) {
		RequestCaptures.Claim claim = forcing.claim();
		if (claim == null) {
			return;
		}
		String spanId = sampledSpanId(observation);
		SpanRecord record = (spanId != null) ? this.profiler.store().find(spanId) : null;
		boolean kept = record != null && claim.matches(route);
		if (kept) {
			this.profiler.store().keepWhenEnded(record, claim.name());
		}
		claim.settle(kept);
	}

	/** The span the tracing handler started for an observation, if sampled. */
	private static String sampledSpanId(Observation.Context observation) {
		TracingObservationHandler.TracingContext tracing = (observation != null)
				? observation.get(TracingObservationHandler.TracingContext.class) : null;
		Span span = (tracing != null) ? tracing.getSpan() : null;
		return (span != null && Boolean.TRUE.equals(span.context().sampled())) ? span.context().spanId() : null;
	}

	/** The answer to a request that asked but could not be forced. */
	public static Answer notProfiled(String reason) {
		return new Answer(METRIC + ";desc=\"not profiled: " + reason + "\"", null);
	}

	/**
	 * What a forced request's response carries.
	 *
	 * @param serverTiming the {@code Server-Timing} header's value
	 * @param link the {@code Link} header's value, {@code null} when not profiled
	 */
	public record Answer(String serverTiming, String link) {

	}

}
