package dev.spanprofile.render.html;

import java.util.Locale;

import dev.spanprofile.render.CpuShare;
import dev.spanprofile.render.TimeBreakdown;
import dev.spanprofile.render.WaitCategory;

/**
 * A request's {@link TimeBreakdown} as the flame graph page shows it above the graph: one
 * bar whose parts are CPU, waiting for a core, each kind of wait, short waits and what is
 * unaccounted, and the same parts listed with their times and what was waited on. The
 * list is complete without script; the page's script only sizes the bar's parts (the
 * page's Content-Security-Policy allows no inline style).
 */
final class TimeBreakdownHtml {

	private TimeBreakdownHtml() {
	}

	static String render(TimeBreakdown breakdown, boolean soFar) {
		return render(breakdown, soFar, null, "", null);
	}

	/**
	 * @param side what the breakdown is of, heading it ({@code Slow requests}), or
	 * {@code null}
	 * @param idSuffix what makes its ids unique on a page of several ({@code -examined})
	 * @param sentence a line under it, or {@code null}
	 */
	static String render(TimeBreakdown breakdown, boolean soFar, String side, String idSuffix, String sentence) {
		long scale = Math.max(breakdown.durationNanos(), breakdown.durationNanos() + breakdown.overlapNanos());
		StringBuilder bar = new StringBuilder("<div class=\"time-bar\" id=\"time-bar").append(idSuffix)
			.append("\" data-scale=\"")
			.append(scale)
			.append("\">");
		StringBuilder parts = new StringBuilder("<ul class=\"time-parts\">");
		if (breakdown.cpuSampled()) {
			part(bar, parts, "cpu", "CPU", breakdown.cpuNanos(), scale,
					breakdown.cpuMeasured() ? (breakdown.summed() ? "read from the requests' threads' CPU clocks"
							: "read from the request's threads' CPU clocks") : cpuEstimate(breakdown));
		}
		if (breakdown.scheduled()) {
			part(bar, parts, "core-wait", TimeBreakdown.CORE_WAIT, breakdown.coreWaitNanos(), scale,
					coreWaitDetail(breakdown));
		}
		for (WaitCategory category : breakdown.waits()) {
			part(bar, parts, slug(category.name()), category.name(), category.nanos(), scale, waitDetails(category));
		}
		if (breakdown.shortWaitsMeasured()) {
			part(bar, parts, "short-waits", breakdown.shortWaitsName(), breakdown.shortWaitNanos(), scale,
					breakdown.waitsRecorded()
							? "blocked (I/O, locks, parks, sleeps) in waits each shorter than the recording threshold, "
									+ "as the kernel counted the threads' time: how many and on what is not recorded"
							: "blocked (I/O, locks, parks, sleeps), as the kernel counted the threads' time: "
									+ "waits are not recorded, so on what is not known");
		}
		if (breakdown.profilerNanos() > 0) {
			part(bar, parts, "profiler", "profiler", breakdown.profilerNanos(), scale,
					"the profiler's own signal handler on the request's threads, not the application's CPU");
		}
		part(bar, parts, "unaccounted", "unaccounted", breakdown.unaccountedNanos(), scale,
				unaccountedDetail(breakdown));
		bar.append("</div>");
		parts.append("</ul>");
		StringBuilder out = new StringBuilder("<section class=\"breakdown\" id=\"breakdown").append(idSuffix)
			.append("\" aria-label=\"Where the time went\">")
			.append("<h2>")
			.append((side != null) ? HtmlEscaper.escape(side) + ": where the " : "Where the ")
			.append(HtmlEscaper.escape(CpuShare.millis(breakdown.durationNanos() / 1e6)))
			.append(soFar ? " so far" : "")
			.append(breakdown.summed() ? " of " + requests(breakdown.requests()) + " went" + ((breakdown.requests() > 0)
					? " (" + HtmlEscaper.escape(CpuShare.millis(breakdown.durationNanos() / 1e6 / breakdown.requests()))
							+ " a request)"
					: "") : " went")
			.append("</h2>")
			.append(bar)
			.append(parts);
		String roundTrips = breakdown.roundTripsText(CpuShare::millis);
		if (roundTrips != null) {
			out.append("<p class=\"round-trips\">").append(HtmlEscaper.escape(roundTrips)).append(".</p>");
		}
		if (breakdown.handOffNote() != null) {
			out.append("<p class=\"hand-off\">").append(HtmlEscaper.escape(breakdown.handOffNote())).append("</p>");
		}
		String before = breakdown.coreWaitBeforeText(CpuShare::millis);
		if (before != null) {
			out.append("<p class=\"core-wait-before\">").append(HtmlEscaper.escape(before)).append("</p>");
		}
		if (breakdown.throttling() != null) {
			out.append("<p class=\"throttling\">")
				.append(HtmlEscaper.escape(breakdown.throttling().text(CpuShare::millis)))
				.append(".</p>");
		}
		if (sentence != null) {
			out.append("<p class=\"difference\">").append(HtmlEscaper.escape(sentence)).append("</p>");
		}
		if (breakdown.overlapNanos() > 0) {
			out.append("<p class=\"overlap\">").append(HtmlEscaper.escape(breakdown.overlapNote())).append(".</p>");
		}
		return out.append("</section>").toString();
	}

	private static String requests(long requests) {
		return requests + ((requests == 1) ? " request" : " requests");
	}

	private static void part(StringBuilder bar, StringBuilder parts, String slug, String label, long nanos, long scale,
			String detail) {
		String time = CpuShare.millis(nanos / 1e6);
		String share = (scale > 0) ? String.format(Locale.ROOT, "%.0f%%", 100.0 * nanos / scale) : "";
		String title = label + " " + time + ((detail != null) ? ": " + detail : "");
		bar.append("<span class=\"seg tb-")
			.append(slug)
			.append("\" data-nanos=\"")
			.append(nanos)
			.append("\" title=\"")
			.append(HtmlEscaper.escape(title))
			.append("\"></span>");
		parts.append("<li class=\"part\" data-part=\"")
			.append(HtmlEscaper.escape(label))
			.append("\"><i class=\"swatch tb-")
			.append(slug)
			.append("\"></i><b>")
			.append(HtmlEscaper.escape(label))
			.append("</b> <span class=\"time\">")
			.append(HtmlEscaper.escape(time))
			.append("</span> <span class=\"share\">")
			.append(share)
			.append("</span>");
		if (detail != null) {
			parts.append(" <span class=\"on\">").append(HtmlEscaper.escape(detail)).append("</span>");
		}
		parts.append("</li>");
	}

	private static String waitDetails(WaitCategory category) {
		StringBuilder detail = new StringBuilder().append(category.count())
			.append((category.count() == 1) ? " wait" : " waits");
		if (!category.on().isEmpty()) {
			detail.append(" on ");
			for (int i = 0; i < category.on().size(); i++) {
				WaitCategory.Detail on = category.on().get(i);
				detail.append((i > 0) ? ", " : "")
					.append(on.detail())
					.append(' ')
					.append(CpuShare.millis(on.nanos() / 1e6));
			}
			if (category.others() != null) {
				detail.append(", ")
					.append(category.others().detail())
					.append(' ')
					.append(CpuShare.millis(category.others().nanos() / 1e6));
			}
		}
		return detail.toString();
	}

	private static String cpuEstimate(TimeBreakdown breakdown) {
		String range = breakdown.cpuRangeText(CpuShare::millis);
		return (range != null) ? "estimated from " + range + " (the wider of ±1 sample and ±√samples)"
				: "estimated from samples";
	}

	private static String coreWaitDetail(TimeBreakdown breakdown) {
		String detail = "runnable but not running: more threads wanted a core than there were, or the container's "
				+ "CPU limit held them; the kernel's own count for the request's threads";
		if (breakdown.coreWaitInWaitsNanos() > 0) {
			detail += "; " + CpuShare.millis(breakdown.coreWaitInWaitsNanos() / 1e6)
					+ " more is inside the recorded waits, which last until their thread runs again";
		}
		return detail;
	}

	private static String unaccountedDetail(TimeBreakdown breakdown) {
		if (breakdown.summed() && breakdown.scheduledRequests() < breakdown.requests()) {
			// Added up over requests measured and not: say what each kind leaves here.
			long without = breakdown.requests() - breakdown.scheduledRequests();
			return "for "
					+ ((breakdown.scheduledRequests() > 0) ? without + " of the " + breakdown.requests()
							: "all " + breakdown.requests())
					+ " requests the kernel's figures were not read (requests tracing did not sample, a thread not "
					+ "measured, spanprofile.core-wait off, or not Linux): "
					+ "their unaccounted time holds their waiting for a core and their waits shorter than the "
					+ "recording threshold" + (breakdown.cpuMeasured() ? "" : ", and the CPU estimate's error")
					+ ((breakdown.scheduledRequests() == 0) ? ""
							: breakdown.cpuMeasured()
									? "; for the others, only the time none of their threads was in them"
									: "; for the others, their short waits, the CPU estimate's error and the time none "
											+ "of their threads was in them");
		}
		if (breakdown.shortWaitsMeasured()) {
			return "the request's threads were not in it: before its first thread entered it, after its last one "
					+ "left, or between two threads handing it over";
		}
		if (breakdown.scheduled()) {
			return "neither CPU, a recorded wait nor waiting for a core: waits shorter than the threshold, the CPU "
					+ "estimate's error, and time the request's threads were not in it "
					+ "(spanprofile.exact-cpu-time measures the first two)";
		}
		if (!breakdown.waitsRecorded()) {
			return "waits are not recorded: this is time off-CPU (I/O, locks, sleeps, other threads)";
		}
		if (!breakdown.cpuSampled()) {
			return "CPU is not sampled, so its time is in here";
		}
		return "neither CPU nor a recorded wait: waits shorter than the threshold, time runnable but not " + "running"
				+ (breakdown.cpuMeasured() ? "" : ", and the CPU estimate's error")
				+ " (spanprofile.exact-cpu-time measures the first two on Linux)";
	}

	/**
	 * {@code socket I/O} becomes {@code socket-i-o}: a class name for the category's
	 * colour.
	 */
	static String slug(String category) {
		if (category.equals(TimeBreakdown.CORE_WAIT)) {
			return "core-wait";
		}
		return category.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
	}

}
