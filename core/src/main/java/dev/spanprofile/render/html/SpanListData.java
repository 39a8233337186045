package dev.spanprofile.render.html;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.spanprofile.render.FrameNames;
import dev.spanprofile.render.SelfTime;

/**
 * Every span of the list as an inert JSON block, for the page's script: the table carries
 * only the first rows (a browser lays out 50,000 rows in seconds), while the scatter,
 * sorting, filtering and "show more" work on all of them. Names, details and frames
 * repeat across requests, so each is written once and referred to by its index. Numbers
 * that the rows carry as attribute text (start, duration) travel as that same text, so
 * that a row the script builds is the row the server would have rendered.
 */
final class SpanListData {

	private final StringBuilder out;

	private final JsonText json;

	private final Map<String, Integer> names = new HashMap<>();

	private final Map<String, Integer> details = new HashMap<>();

	private final Map<String, Integer> reasons = new HashMap<>();

	private final Map<String, Integer> frames = new HashMap<>();

	private final Map<String, Integer> statuses = new HashMap<>();

	private final Map<String, Integer> retained = new HashMap<>();

	private long base;

	private SpanListData(int rows) {
		this.out = new StringBuilder(64 + rows * 160);
		this.json = new JsonText(this.out);
	}

	static String json(List<SpanIndexPage.Row> rows, int listed, boolean allocated, boolean lockWait) {
		return new SpanListData(rows.size()).write(rows, listed, allocated, lockWait);
	}

	private String write(List<SpanIndexPage.Row> rows, int listed, boolean allocated, boolean lockWait) {
		this.base = rows.stream().mapToLong(SpanIndexPage.Row::startEpochNanos).min().orElse(0);
		this.out.append("{\"base\":\"").append(this.base).append("\",\"listed\":").append(listed);
		this.out.append(",\"allocated\":").append(allocated);
		this.out.append(",\"lockwait\":").append(lockWait).append(",\"spans\":[");
		for (int i = 0; i < rows.size(); i++) {
			if (i > 0) {
				this.out.append(',');
			}
			span(rows.get(i));
		}
		this.out.append(']');
		table("names", this.names, false);
		table("details", this.details, false);
		table("reasons", this.reasons, false);
		table("frames", this.frames, true);
		table("statuses", this.statuses, false);
		table("retained", this.retained, false);
		return this.out.append('}').toString();
	}

	// [spanId, traceId, name, detail, inFlight, status, start, duration, samples,
	// emptyReason, retainedAs, allocated, lockWait, [frame, samples, ...]]: texts as
	// indexes into their tables, the start in nanoseconds after the earliest (exact in a
	// double for 104 days, written as text beyond), the duration in microseconds. Short
	// numbers keep a list of 50,000 spans to a few megabytes, which is most of what its
	// page costs to load.
	private void span(SpanIndexPage.Row row) {
		this.out.append('[');
		this.json.string(row.spanId()).raw(',').string(row.traceId()).raw(',');
		this.out.append(index(this.names, row.name())).append(',').append(index(this.details, row.detail()));
		this.out.append(',').append(row.inFlight() ? 1 : 0).append(',').append(index(this.statuses, row.status()));
		long offset = row.startEpochNanos() - this.base;
		if (offset >= 0 && offset < (1L << 53)) {
			this.out.append(',').append(offset).append(',');
		}
		else {
			this.out.append(',');
			this.json.string(Long.toString(offset)).raw(',');
		}
		this.out.append(SpanIndexPage.durationMicros(row.durationMillis())).append(',').append(row.samples());
		this.out.append(',').append(index(this.reasons, row.emptyReason())).append(',');
		this.out.append(index(this.retained, row.retainedAs())).append(',');
		this.out.append(row.allocatedBytes()).append(',').append(row.lockWaitNanos()).append(",[");
		boolean first = true;
		for (SelfTime.Entry entry : row.topFrames()) {
			if (!first) {
				this.out.append(',');
			}
			first = false;
			this.out.append(index(this.frames, entry.frame())).append(',').append(entry.samples());
		}
		this.out.append("]]");
	}

	private static int index(Map<String, Integer> table, String text) {
		return table.computeIfAbsent((text != null) ? text : "", (key) -> table.size());
	}

	/**
	 * A table of texts in the order of their indexes; frames with their short names
	 * beside them.
	 */
	private void table(String key, Map<String, Integer> table, boolean withShortNames) {
		String[] texts = new String[table.size()];
		table.forEach((text, index) -> texts[index] = text);
		this.out.append(',');
		this.json.key(key).raw('[');
		for (int i = 0; i < texts.length; i++) {
			if (i > 0) {
				this.out.append(',');
			}
			this.json.string(texts[i]);
			if (withShortNames) {
				this.out.append(',');
				this.json.string(FrameNames.shortName(texts[i]));
			}
		}
		this.out.append(']');
	}

}
