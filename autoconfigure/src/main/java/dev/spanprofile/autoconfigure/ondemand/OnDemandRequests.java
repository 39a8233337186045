package dev.spanprofile.autoconfigure.ondemand;

import java.util.function.Supplier;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.store.SpanRecord;

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

	private final Supplier<String> currentSpanId;

	private final String endpointPath;

	/**
	 * @param currentSpanId the id of the span current on the calling thread, {@code null}
	 * when none (or not sampled)
	 * @param endpointPath where the flame graphs are served, e.g.
	 * {@code /actuator/spanprofile}
	 */
	public OnDemandRequests(OnDemandGate gate, String header, SpanProfiler profiler, Supplier<String> currentSpanId,
			String endpointPath) {
		this.gate = gate;
		this.header = header;
		this.profiler = profiler;
		this.currentSpanId = currentSpanId;
		this.endpointPath = endpointPath;
	}

	/** The request header that asks for a profile. */
	public String header() {
		return this.header;
	}

	/**
	 * Before the request's span starts: decide, and for a forced request arm the sampler
	 * on this thread ({@link ForcedSampling#disarm()} once the request is through).
	 */
	public OnDemandGate.Decision beforeSpan(String headerValue, String remoteAddress) {
		OnDemandGate.Decision decision = this.gate.decide(headerValue, remoteAddress);
		if (decision == OnDemandGate.Decision.FORCED) {
			ForcedSampling.arm();
		}
		return decision;
	}

	/**
	 * Once the forced request's span started, on the thread it is current on: keep it,
	 * and answer what the response's headers say.
	 */
	public Answer afterSpanStarted() {
		ForcedSampling.disarm();
		String spanId = this.currentSpanId.get();
		SpanRecord record = (spanId != null) ? this.profiler.store().find(spanId) : null;
		if (record == null) {
			return notProfiled(this.profiler.state().isRunning() ? "not traced" : "profiler not running");
		}
		this.profiler.store().keepWhenEnded(record);
		String root = record.localRoot().spanId();
		return new Answer(METRIC + ";desc=\"" + root + "\"",
				"<" + this.endpointPath + "/" + root + "?format=html>; rel=\"related\"; title=\"flame graph\"");
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
