package dev.spanprofile.aggregate;

import dev.spanprofile.profile.StackTree;

/**
 * A span name's merged profile over a window, restricted to a selection of its requests,
 * with the heatmap of all its requests in the window read at the same moment.
 *
 * @param name the span name
 * @param samples the merged call tree (bounded: thin branches may be folded into
 * {@code [trimmed]})
 * @param spans spans whose profiles were folded in (with or without samples), and
 * requests that tracing did not sample
 * @param minNanos shortest duration included: the requested minimum rounded down to a
 * band edge
 * @param maxNanos first duration excluded: the requested maximum rounded up to a band
 * edge ({@link Long#MAX_VALUE} when unbounded)
 * @param fromEpochNanos first end time included: the start of the first bucket selected
 * @param toEpochNanos first end time excluded: the end of the last bucket selected
 * ({@code fromEpochNanos} when the selection holds no bucket of the window)
 * @param heatmap the window's requests by bucket and band, whatever the selection
 * @param unsampled of {@code spans}, the requests that tracing did not sample
 * @param breakdown where the selected requests' time went, added up over them: the same
 * requests as {@code spans}
 */
public record NameProfile(String name, StackTree samples, long spans, long minNanos, long maxNanos, long fromEpochNanos,
		long toEpochNanos, LatencyHeatmap heatmap, long unsampled, RequestsBreakdown breakdown) {

}
