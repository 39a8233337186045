package dev.spanprofile.view;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.InclusiveSamples;
import dev.spanprofile.store.SpanRecord;

/**
 * A span's metadata as the list and the flame-graph responses show it ({@link SpanJson}),
 * read from its record.
 */
final class SpanDescriptions {

	private SpanDescriptions() {
	}

	static SpanJson describe(SpanRecord record, long nowEpochNanos, long completeUpToEpochNanos, boolean inclusive,
			Set<SampleKind> kinds) {
		Map<String, Long> byKind = new LinkedHashMap<>();
		long samples = 0;
		for (SampleKind kind : kinds) {
			long count = inclusive ? InclusiveSamples.count(record, kind) : record.ownSampleCount(kind);
			byKind.put(kind.id(), count);
			samples = (samples == 0) ? count : samples;
		}
		// Weights rather than counts: what someone chasing GC pressure or contention
		// compares between requests.
		Long lock = byKind.get(SampleKind.LOCK.id());
		Long wait = byKind.get(SampleKind.WAIT.id());
		// Samples reach the store about one dump interval after they are taken, hence
		// "complete".
		// The first kind (cpu when sampled) is the headline; each kind is also listed
		// when several are sampled.
		return new SpanJson(record.traceId(), record.spanId(), record.parentSpanId(), record.localRoot().spanId(),
				record.name(), record.kind(), record.status(), record.threadName(),
				Instant.ofEpochSecond(0, record.startEpochNanos()).toString(),
				record.durationNanos(nowEpochNanos) / 1_000_000.0, record.inFlight(),
				!record.inFlight() && record.endEpochNanos() <= completeUpToEpochNanos, record.retainedAs().id(),
				record.isForced(), record.capture(), samples, (kinds.size() > 1) ? byKind : null,
				byKind.get(SampleKind.ALLOC.id()), (lock != null) ? lock / 1e6 : null,
				(wait != null) ? wait / 1e6 : null, null, null);
	}

}
