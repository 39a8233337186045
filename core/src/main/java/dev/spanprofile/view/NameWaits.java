package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.spanprofile.aggregate.NameSummary;
import dev.spanprofile.profile.FrameTable;
import dev.spanprofile.profile.StackTree;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.WaitCategory;

/**
 * How much of a span name's time its requests spent waiting, and on what: the names list
 * answers "is this endpoint slow because it waits, and for whom?" before anyone opens a
 * graph. Read from the name's merged profile of waits over the window, against its
 * requests' durations added up; waits on other threads of a request count too, so the
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
	 * @param waits the name's merged profile of waits over the same window as
	 * {@code summary}, or {@code null} when it has none
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

	/** As the name list carries it. */
	NameWaitsJson json() {
		long waited = this.breakdown.waitNanos();
		List<NameWaitsJson.Category> categories = new ArrayList<>();
		for (WaitCategory category : this.breakdown.waits()) {
			categories
				.add(new NameWaitsJson.Category(category.name(), millis(category.nanos()), percentOf(category.nanos()),
						category.on().isEmpty() ? null : category.on().stream().map(NameWaits::detail).toList(),
						(category.others() != null) ? detail(category.others()) : null));
		}
		return new NameWaitsJson(millis(waited),
				(this.summary.count() > 0) ? millis(waited / this.summary.count()) : 0.0, percentOf(waited),
				categories);
	}

	private static NameWaitsJson.Detail detail(WaitCategory.Detail detail) {
		return new NameWaitsJson.Detail(detail.detail(), millis(detail.nanos()));
	}

	/**
	 * For the names page: {@code 93.1 %: socket I/O 90.0 % (localhost:5432), park 3.1 %},
	 * or a dash.
	 */
	String text() {
		if (!waited()) {
			return "–";
		}
		StringBuilder text = new StringBuilder(percent(percentOf(this.breakdown.waitNanos()))).append(':');
		for (int i = 0; i < this.breakdown.waits().size(); i++) {
			WaitCategory category = this.breakdown.waits().get(i);
			text.append((i == 0) ? " " : ", ")
				.append(category.name())
				.append(' ')
				.append(percent(percentOf(category.nanos())));
			if (!category.on().isEmpty()) {
				text.append(" (")
					.append(category.on().get(0).detail())
					.append((category.on().size() > 1 || category.others() != null) ? ", ..." : "")
					.append(')');
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
