package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.WaitCategory;

/**
 * How much of a span name's time its requests spent waiting, and on what: the names list answers "is this endpoint
 * slow because it waits, and for whom?" before anyone opens a graph. Read from the name's merged profile of waits
 * over the window, against its requests' durations added up; waits on other threads of a request count too, so the
 * share can exceed 100 % for requests that wait on several threads at once.
 */
final class NameWaits {

	private final NameSummary summary;

	private final TimeBreakdown breakdown;

	private NameWaits(NameSummary summary, TimeBreakdown breakdown) {
		this.summary = summary;
		this.breakdown = breakdown;
	}

	/**
	 * @param waits the name's merged profile of waits over the same window as {@code summary}, or {@code null}
	 * when it has none
	 */
	static NameWaits of(NameSummary summary, StackTree waits, FrameTable frames) {
		return new NameWaits(summary,
				TimeBreakdown.of(summary.totalNanos(), -1, 0, (waits != null) ? waits : new StackTree(), frames));
	}

	/** Whether the name's requests waited at all in the window. */
	boolean waited() {
		return !this.breakdown.waits().isEmpty();
	}

	private double percentOf(long nanos) {
		return (this.summary.totalNanos() > 0) ? Math.round(1000.0 * nanos / this.summary.totalNanos()) / 10.0 : 0;
	}

	/**
	 * {@code millis} waited in all, {@code millisPerRequest}, {@code percent} of the requests' time, and per
	 * category ({@code on}) its {@code millis}, {@code percent} and the {@code details} it was on (peers, monitors'
	 * classes, queues), with {@code otherDetails} adding up the rest.
	 */
	Map<String, Object> json() {
		Map<String, Object> json = new LinkedHashMap<>();
		long waited = this.breakdown.waitNanos();
		json.put("millis", millis(waited));
		json.put("millisPerRequest", (this.summary.count() > 0) ? millis(waited / this.summary.count()) : 0.0);
		json.put("percent", percentOf(waited));
		List<Map<String, Object>> categories = new ArrayList<>();
		for (WaitCategory category : this.breakdown.waits()) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("category", category.name());
			entry.put("millis", millis(category.nanos()));
			entry.put("percent", percentOf(category.nanos()));
			if (!category.on().isEmpty()) {
				List<Map<String, Object>> details = new ArrayList<>();
				for (WaitCategory.Detail detail : category.on()) {
					details.add(detail(detail));
				}
				entry.put("details", details);
			}
			if (category.others() != null) {
				entry.put("otherDetails", detail(category.others()));
			}
			categories.add(entry);
		}
		json.put("on", categories);
		return json;
	}

	private static Map<String, Object> detail(WaitCategory.Detail detail) {
		Map<String, Object> json = new LinkedHashMap<>();
		json.put("detail", detail.detail());
		json.put("millis", millis(detail.nanos()));
		return json;
	}

	/** For the names page: {@code 93.1 %: socket I/O 90.0 % (localhost:5432), park 3.1 %}, or a dash. */
	String text() {
		if (!waited()) {
			return "–";
		}
		StringBuilder text = new StringBuilder(percent(percentOf(this.breakdown.waitNanos()))).append(':');
		for (int i = 0; i < this.breakdown.waits().size(); i++) {
			WaitCategory category = this.breakdown.waits().get(i);
			text.append((i == 0) ? " " : ", ").append(category.name()).append(' ')
				.append(percent(percentOf(category.nanos())));
			if (!category.on().isEmpty()) {
				text.append(" (").append(category.on().get(0).detail())
					.append((category.on().size() > 1 || category.others() != null) ? ", ..." : "").append(')');
			}
		}
		return text.toString();
	}

	private static String percent(double percent) {
		return String.format(Locale.ROOT, "%.1f %%", percent);
	}

	private static double millis(long nanos) {
		return Math.round(nanos / 1_000.0) / 1_000.0;
	}

}
