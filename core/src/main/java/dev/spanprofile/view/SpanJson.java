package dev.spanprofile.view;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import dev.spanprofile.store.RetainedAs;

/**
 * A span's metadata, as the span list and the flame-graph responses describe it. A key
 * that does not apply (the weights of kinds not sampled, a display name equal to the
 * span's name) is left out, not written as null.
 *
 * @param traceId the trace, 32 hexadecimal characters
 * @param spanId the span, 16 hexadecimal characters
 * @param parentSpanId the parent's span id, {@code null} (and written as such) for a
 * trace root
 * @param localRootSpanId the span of the request in this process
 * @param name the span's name
 * @param kind the span's kind ({@code SERVER}, {@code INTERNAL}, ...)
 * @param status {@code UNSET}, {@code OK} or {@code ERROR}
 * @param thread the thread the span started on
 * @param startTime the start, as an ISO-8601 instant
 * @param durationMillis how long it took, or has taken so far
 * @param inFlight whether it is still running
 * @param complete whether every sample up to its end has been joined (samples arrive
 * about one dump interval late)
 * @param retainedAs why it is kept: the store's reason ({@code recent}, {@code slowest},
 * {@code error}, {@code forced}), or {@code first-request} for a cold first request after
 * the start that the store keeps only as recent, or no longer keeps
 * @param forced whether its request was forced (an on-demand header or a capture), still
 * true once the store no longer keeps it as forced
 * @param captured the capture that took its request, left out when none did
 * @param samples samples of the first kind sampled (cpu when sampled)
 * @param samplesByEvent samples of each kind, when several kinds are sampled: the keys
 * are the kinds sampled
 * @param allocatedBytes bytes allocated, when allocations are sampled
 * @param lockWaitMillis time waiting for locks, when locks are sampled
 * @param waitMillis time waiting, when waits are recorded
 * @param displayName what the pages call the span when its name says little (a running
 * request's placeholder)
 * @param firstAfterStart true for the first request of its name after the application
 * started (kept with the start's profile, listed at {@code startup/first-requests}); left
 * out for the others
 */
public record SpanJson(String traceId, String spanId, String parentSpanId, String localRootSpanId, String name,
		String kind, String status, String thread, String startTime, double durationMillis, boolean inFlight,
		boolean complete, String retainedAs, boolean forced, @JsonInclude(Include.NON_NULL) String captured,
		long samples, @JsonInclude(Include.NON_NULL) Map<String, Long> samplesByEvent,
		@JsonInclude(Include.NON_NULL) Long allocatedBytes, @JsonInclude(Include.NON_NULL) Double lockWaitMillis,
		@JsonInclude(Include.NON_NULL) Double waitMillis, @JsonInclude(Include.NON_NULL) String displayName,
		@JsonInclude(Include.NON_NULL) Boolean firstAfterStart) {

	/** What {@code retainedAs} says of a first request the store keeps only as recent. */
	static final String FIRST_REQUEST = "first-request";

	/** The same span under the name the pages show for it. */
	SpanJson withDisplayName(String displayName) {
		return new SpanJson(this.traceId, this.spanId, this.parentSpanId, this.localRootSpanId, this.name, this.kind,
				this.status, this.thread, this.startTime, this.durationMillis, this.inFlight, this.complete,
				this.retainedAs, this.forced, this.captured, this.samples, this.samplesByEvent, this.allocatedBytes,
				this.lockWaitMillis, this.waitMillis, displayName, this.firstAfterStart);
	}

	/**
	 * The same span marked as the first request of its name after the start, which the
	 * start's profile keeps whatever the store does.
	 */
	SpanJson asFirstAfterStart() {
		String retained = this.retainedAs.equals(RetainedAs.RECENT.id()) ? FIRST_REQUEST : this.retainedAs;
		return new SpanJson(this.traceId, this.spanId, this.parentSpanId, this.localRootSpanId, this.name, this.kind,
				this.status, this.thread, this.startTime, this.durationMillis, this.inFlight, this.complete, retained,
				this.forced, this.captured, this.samples, this.samplesByEvent, this.allocatedBytes, this.lockWaitMillis,
				this.waitMillis, this.displayName, true);
	}

}
