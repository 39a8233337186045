package dev.spanprofile.view;

import java.util.List;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.profile.StackTree;

/**
 * What the id in {@code /spanprofile/{id}} stands for: one span's profile (a span id), or
 * all local spans of a trace merged (a trace id), as parts that each carry a span's
 * samples.
 *
 * @param requested the span asked for; {@code null} for a trace
 * @param traceId the trace
 * @param parts the profiled spans with their samples: one for a span, the trace's local
 * roots for a trace
 * @param kind what the samples measure (cpu or wall)
 */
public record ProfileSubject(SpanRecord requested, String traceId, List<Part> parts, SampleKind kind) {

	public boolean isTrace() {
		return this.requested == null;
	}

	/**
	 * The span whose samples a single-span subject shows: the requested one, or its local
	 * root.
	 */
	public SpanRecord profiled() {
		return this.parts.get(0).span();
	}

	public long samples() {
		long samples = 0;
		for (Part part : this.parts) {
			samples += part.samples().totalSamples();
		}
		return samples;
	}

	/**
	 * Events counted in the parts' graphs: lock waits for the lock kind (see
	 * {@link SampleKind#countsEvents()}).
	 */
	public long events() {
		long events = 0;
		for (Part part : this.parts) {
			events += part.samples().events();
		}
		return events;
	}

	/**
	 * One span's share of the subject.
	 *
	 * @param span the span
	 * @param name what to call it
	 * @param samples its samples (with its local descendants' when attribution is not
	 * root-only)
	 */
	public record Part(SpanRecord span, String name, StackTree samples) {
	}

}
