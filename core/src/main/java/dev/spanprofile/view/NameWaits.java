package dev.spanprofile.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.spanprofile.aggregate.RequestsBreakdown;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.WaitCategory;

/**
 * How much of a span name's time its requests spent waiting, on what, and waiting for a
 * core: the names list answers "is this endpoint slow because it waits, and for whom?"
 * before anyone opens a graph. Read from the breakdown sums the name's cells already hold
 * (each request's parts added up as it was folded), against the same requests' durations
 * added up: no profile is merged. Waits are the recorded ones by category and, where the
 * kernel's figures and the CPU clocks were read, the short waits under the recording
 * threshold; waiting for a core is a figure of its own beside them, since it is not
 * waiting on anything the application can change. Waits on other threads of a request
 * count too, so the share can exceed 100 % for requests that wait on several threads at
 * once.
 */
final class NameWaits {

	/** Where the name's requests' time went; {@code null} while none is folded. */
	private final TimeBreakdown breakdown;

	private final boolean waitsRecorded;

	private NameWaits(TimeBreakdown breakdown, boolean waitsRecorded) {
		this.breakdown = breakdown;
		this.waitsRecorded = waitsRecorded;
	}

	/**
	 * @param sums the name's requests added up over the window, or {@code null} when it
	 * has none folded
	 * @param sampled the kinds sampled now
	 * @param intervalNanos the sampling interval now
	 */
	static NameWaits of(RequestsBreakdown sums, Set<SampleKind> sampled, long intervalNanos) {
		return new NameWaits(
				(sums != null && sums.requests() > 0) ? RequestsBreakdowns.of(sums, sampled, intervalNanos) : null,
				sampled.contains(SampleKind.WAIT));
	}

	/** Whether the name's requests made recorded waits at all in the window. */
	boolean waited() {
		return this.breakdown != null && !this.breakdown.waits().isEmpty();
	}

	/** Whether the name's requests' time waiting for a core was read. */
	boolean coreWaitRead() {
		return this.breakdown != null && this.breakdown.scheduled();
	}

	private boolean shortWaitsShown() {
		return this.breakdown != null && this.breakdown.shortWaitsMeasured() && this.breakdown.shortWaitNanos() > 0;
	}

	private long waitedNanos() {
		if (this.breakdown == null) {
			return 0;
		}
		return this.breakdown.waitNanos() + (shortWaitsShown() ? this.breakdown.shortWaitNanos() : 0);
	}

	private double percentOf(long nanos) {
		long total = (this.breakdown != null) ? this.breakdown.durationNanos() : 0;
		return (total > 0) ? Math.round(1000.0 * nanos / total) / 10.0 : 0;
	}

	private double perRequest(long nanos) {
		return (this.breakdown != null && this.breakdown.requests() > 0) ? millis(nanos / this.breakdown.requests())
				: 0.0;
	}

	/** As the name list carries it, where waits are recorded; else {@code null}. */
	NameWaitsJson json() {
		if (!this.waitsRecorded) {
			return null;
		}
		long waited = waitedNanos();
		List<NameWaitsJson.Category> categories = new ArrayList<>();
		if (this.breakdown != null) {
			for (WaitCategory category : this.breakdown.waits()) {
				categories.add(new NameWaitsJson.Category(category.name(), millis(category.nanos()),
						percentOf(category.nanos()),
						category.on().isEmpty() ? null : category.on().stream().map(NameWaits::detail).toList(),
						(category.others() != null) ? detail(category.others()) : null));
			}
			if (shortWaitsShown()) {
				long nanos = this.breakdown.shortWaitNanos();
				categories.add(new NameWaitsJson.Category(this.breakdown.shortWaitsName(), millis(nanos),
						percentOf(nanos), null, null));
				categories.sort((a, b) -> Double.compare(b.millis(), a.millis()));
			}
		}
		return new NameWaitsJson(millis(waited), perRequest(waited), percentOf(waited), categories);
	}

	/**
	 * Waiting for a core, as the name list carries it, where it was read; else
	 * {@code null}.
	 */
	NameCoreWaitJson coreWaitJson() {
		if (!coreWaitRead()) {
			return null;
		}
		long nanos = this.breakdown.coreWaitNanos();
		return new NameCoreWaitJson(millis(nanos), perRequest(nanos), percentOf(nanos),
				this.breakdown.scheduledRequests());
	}

	private static NameWaitsJson.Detail detail(WaitCategory.Detail detail) {
		return new NameWaitsJson.Detail(detail.detail(), millis(detail.nanos()));
	}

	/** The bar's parts: each category of waits, then waiting for a core. */
	List<java.util.Map.Entry<String, Double>> shares() {
		List<java.util.Map.Entry<String, Double>> shares = new ArrayList<>();
		NameWaitsJson waits = json();
		if (waits != null) {
			for (NameWaitsJson.Category category : waits.on()) {
				shares.add(java.util.Map.entry(category.category(), category.percent()));
			}
		}
		NameCoreWaitJson coreWait = coreWaitJson();
		if (coreWait != null && coreWait.percent() > 0) {
			shares.add(java.util.Map.entry(TimeBreakdown.CORE_WAIT, coreWait.percent()));
		}
		return shares;
	}

	/**
	 * For the names page:
	 * {@code 93.1 %: socket I/O 90.0 % (localhost:5432), park 3.1 %; waiting for a core
	 * 4.0 %}, or a dash where neither was.
	 */
	String text() {
		StringBuilder text = new StringBuilder();
		if (this.waitsRecorded && waitedNanos() > 0) {
			NameWaitsJson waits = json();
			text.append(percent(waits.percent())).append(':');
			for (int i = 0; i < waits.on().size(); i++) {
				NameWaitsJson.Category category = waits.on().get(i);
				text.append((i == 0) ? " " : ", ")
					.append(category.category())
					.append(' ')
					.append(percent(category.percent()));
				if (category.details() != null) {
					text.append(" (")
						.append(category.details().get(0).detail())
						.append((category.details().size() > 1 || category.otherDetails() != null) ? ", ..." : "")
						.append(')');
				}
			}
		}
		NameCoreWaitJson coreWait = coreWaitJson();
		if (coreWait != null && coreWait.millis() > 0) {
			text.append((text.length() > 0) ? "; " : "")
				.append(TimeBreakdown.CORE_WAIT)
				.append(' ')
				.append(percent(coreWait.percent()));
		}
		return (text.length() > 0) ? text.toString() : "–";
	}

	private static String percent(double percent) {
		return String.format(Locale.ROOT, "%.1f %%", percent);
	}

	private static double millis(long nanos) {
		return Math.round(nanos / 1_000.0) / 1_000.0;
	}

}
