package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.TimelineSamples;

/**
 * One request's life along its time: a lane per thread that worked for it, in the order they joined (so a hand-off
 * to another thread shows as the next lane taking over), each sample a moment and each wait a stretch labelled with
 * what was waited on. The JSON the endpoint serves and the page draws.
 */
final class RequestTimeline {

	static final String PARTIAL_WAITS = "a wait that overlaps a stretch counts with the part of it inside the stretch";

	private RequestTimeline() {
	}

	/**
	 * The timeline of {@code profiled}, with its local descendants' samples when {@code withDescendants}, as of
	 * {@code now} (epoch nanoseconds) for a running span.
	 */
	static Map<String, Object> json(SpanRecord profiled, boolean withDescendants, long now, FrameTable frames) {
		List<TimelineSamples.Sample> samples = new ArrayList<>();
		long[] dropped = new long[1];
		collect(profiled, withDescendants, samples, dropped);
		samples.sort(Comparator.comparingLong(TimelineSamples.Sample::startEpochNanos));
		long start = profiled.startEpochNanos();
		Map<Long, Integer> laneOf = new LinkedHashMap<>();
		List<Map<String, Object>> lanes = new ArrayList<>();
		List<Map<String, Object>> entries = new ArrayList<>(samples.size());
		for (TimelineSamples.Sample sample : samples) {
			Integer lane = laneOf.get(sample.threadId());
			if (lane == null) {
				lane = lanes.size();
				laneOf.put(sample.threadId(), lane);
				Map<String, Object> described = new LinkedHashMap<>();
				boolean named = sample.threadName() != null && !sample.threadName().isBlank();
				described.put("thread", named ? sample.threadName() : "thread " + sample.threadId());
				described.put("threadId", sample.threadId());
				lanes.add(described);
			}
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("lane", lane);
			entry.put("kind", sample.kind().id());
			entry.put("startMillis", millis(sample.startEpochNanos() - start));
			entry.put("endMillis", millis(sample.epochNanos() - start));
			if (sample.kind() == SampleKind.WAIT && sample.leafFrame() >= 0) {
				entry.put("label", frames.name(sample.leafFrame()));
			}
			entries.add(entry);
		}
		Map<String, Object> timeline = new LinkedHashMap<>();
		timeline.put("durationMillis", millis(profiled.durationNanos(now)));
		timeline.put("inFlight", profiled.inFlight());
		timeline.put("lanes", lanes);
		timeline.put("entries", entries);
		timeline.put("truncated", dropped[0] > 0);
		if (dropped[0] > 0) {
			timeline.put("droppedSamples", dropped[0]);
			timeline.put("note", "Each span's timeline keeps its first " + TimelineSamples.MAX_SAMPLES + " samples: "
					+ dropped[0] + " later ones are in the whole graph but not on the timeline, nor in a stretch");
		}
		timeline.put("partialWaits", PARTIAL_WAITS);
		return timeline;
	}

	private static void collect(SpanRecord record, boolean withDescendants, List<TimelineSamples.Sample> samples,
			long[] dropped) {
		TimelineSamples own = record.ownTimeline();
		samples.addAll(own.samples());
		dropped[0] += own.dropped();
		if (withDescendants) {
			for (SpanRecord child : record.children()) {
				collect(child, true, samples, dropped);
			}
		}
	}

	/** Milliseconds to the microsecond: finer than any pixel, shorter JSON. */
	static double millis(long nanos) {
		return Math.round(nanos / 1_000.0) / 1_000.0;
	}

}
