package dev.spanprofile.view;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;

/**
 * The JSON shape of a span's metadata, shared by the list and the flame-graph responses.
 */
final class SpanDescriptions {

	private SpanDescriptions() {
	}

	static Map<String, Object> describe(SpanRecord record, long nowEpochNanos, long completeUpToEpochNanos,
			boolean inclusive, Set<SampleKind> kinds) {
		Map<String, Object> span = new LinkedHashMap<>();
		span.put("traceId", record.traceId());
		span.put("spanId", record.spanId());
		span.put("parentSpanId", record.parentSpanId());
		span.put("localRootSpanId", record.localRoot().spanId());
		span.put("name", record.name());
		span.put("kind", record.kind());
		span.put("status", record.status());
		span.put("thread", record.threadName());
		span.put("startTime", Instant.ofEpochSecond(0, record.startEpochNanos()).toString());
		span.put("durationMillis", record.durationNanos(nowEpochNanos) / 1_000_000.0);
		span.put("inFlight", record.inFlight());
		// Samples reach the store about one dump interval after they are taken.
		span.put("complete", !record.inFlight() && record.endEpochNanos() <= completeUpToEpochNanos);
		span.put("retainedAs", record.retainedAs().id());
		Map<String, Object> byKind = new LinkedHashMap<>();
		long samples = 0;
		for (SampleKind kind : kinds) {
			long count = inclusive ? record.inclusiveSampleCount(kind) : record.ownSampleCount(kind);
			byKind.put(kind.id(), count);
			samples = (samples == 0) ? count : samples;
		}
		// The first kind (cpu when sampled) is the headline; each kind is also listed when several are sampled.
		span.put("samples", samples);
		if (kinds.size() > 1) {
			span.put("samplesByEvent", byKind);
		}
		// Weights rather than counts: what someone chasing GC pressure or contention compares between requests.
		if (kinds.contains(SampleKind.ALLOC)) {
			span.put("allocatedBytes", byKind.get(SampleKind.ALLOC.id()));
		}
		if (kinds.contains(SampleKind.LOCK)) {
			span.put("lockWaitMillis", (Long) byKind.get(SampleKind.LOCK.id()) / 1e6);
		}
		if (kinds.contains(SampleKind.WAIT)) {
			span.put("waitMillis", (Long) byKind.get(SampleKind.WAIT.id()) / 1e6);
		}
		return span;
	}

}
