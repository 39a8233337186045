package dev.spanprofile.view;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.spanprofile.aggregate.LatencyHeatmap;

/**
 * A span name's latency heatmap as its JSON and its page carry it: per minute of the
 * window, the requests and the failed requests in each latency band. The counts add up to
 * the window's requests of the name, so that a selection of cells can be checked against
 * the graph it opens.
 *
 * @param startTimes each bucket's start (ISO-8601), oldest first
 * @param bandEdgesMillis the bands' edges, one more than the bands, lowest first; the
 * last {@code null} when the top band is unbounded
 * @param counts per bucket, the requests in each band, lowest band first
 * @param errors per bucket, the failed requests in each band
 */
public record HeatmapJson(List<String> startTimes, List<Double> bandEdgesMillis, List<List<Long>> counts,
		List<List<Long>> errors) {

	static HeatmapJson of(LatencyHeatmap heatmap) {
		List<String> starts = new ArrayList<>(heatmap.startEpochNanos().length);
		for (long start : heatmap.startEpochNanos()) {
			starts.add(Instant.ofEpochSecond(0, start).toString());
		}
		List<Double> edges = new ArrayList<>(heatmap.bandEdgesNanos().length);
		for (long edge : heatmap.bandEdgesNanos()) {
			edges.add((edge != Long.MAX_VALUE) ? edge / 1e6 : null);
		}
		return new HeatmapJson(starts, edges, matrix(heatmap.counts()), matrix(heatmap.errors()));
	}

	private static List<List<Long>> matrix(long[][] values) {
		List<List<Long>> rows = new ArrayList<>(values.length);
		for (long[] row : values) {
			rows.add(Arrays.stream(row).boxed().toList());
		}
		return rows;
	}

}
