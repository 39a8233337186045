package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;
import dev.spanprofile.store.TimelineSamples;

/**
 * One request's life along its time: a lane per thread that worked for it, in the order
 * they joined (so a hand-off to another thread shows as the next lane taking over), each
 * sample a moment and each wait a stretch labelled with what was waited on. The JSON the
 * endpoint serves and the page draws.
 */
final class RequestTimeline {

	static final String PARTIAL_WAITS = "a wait that overlaps a stretch counts with the part of it inside the stretch";

	private RequestTimeline() {
	}

	/**
	 * The timeline of {@code profiled}, with its local descendants' samples when
	 * {@code withDescendants}, as of {@code now} (epoch nanoseconds) for a running span.
	 */
	static TimelineJson json(SpanRecord profiled, boolean withDescendants, long now, FrameTable frames) {
		List<TimelineSamples.Sample> samples = new ArrayList<>();
		long[] dropped = new long[1];
		collect(profiled, withDescendants, samples, dropped);
		samples.sort(Comparator.comparingLong(TimelineSamples.Sample::startEpochNanos));
		long start = profiled.startEpochNanos();
		Map<Long, Integer> laneOf = new HashMap<>();
		List<TimelineJson.Lane> lanes = new ArrayList<>();
		List<TimelineJson.Entry> entries = new ArrayList<>(samples.size());
		for (TimelineSamples.Sample sample : samples) {
			Integer lane = laneOf.get(sample.threadId());
			if (lane == null) {
				lane = lanes.size();
				laneOf.put(sample.threadId(), lane);
				boolean named = sample.threadName() != null && !sample.threadName().isBlank();
				lanes.add(new TimelineJson.Lane(named ? sample.threadName() : "thread " + sample.threadId(),
						sample.threadId()));
			}
			String label = (sample.kind() == SampleKind.WAIT && sample.leafFrame() >= 0)
					? frames.name(sample.leafFrame()) : null;
			entries.add(new TimelineJson.Entry(lane, sample.kind().id(), millis(sample.startEpochNanos() - start),
					millis(sample.epochNanos() - start), label));
		}
		boolean truncated = dropped[0] > 0;
		String note = truncated ? "Each span's timeline keeps its first " + TimelineSamples.MAX_SAMPLES + " samples: "
				+ dropped[0] + " later ones are in the whole graph but not on the timeline, nor in a " + "stretch"
				: null;
		return new TimelineJson(millis(profiled.durationNanos(now)), profiled.inFlight(), lanes, entries, truncated,
				truncated ? dropped[0] : null, note, PARTIAL_WAITS);
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
