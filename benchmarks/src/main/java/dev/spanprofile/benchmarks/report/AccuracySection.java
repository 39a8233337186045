package dev.spanprofile.benchmarks.report;

import java.time.Duration;
import java.util.Locale;

import dev.spanprofile.benchmarks.accuracy.AccuracyResult;

/**
 * The part of the report on attribution: whether samples land in the span that ran them,
 * in the numbers expected, and how soon after a span ends its profile is complete.
 */
final class AccuracySection {

	private final MarkdownLines out;

	AccuracySection(MarkdownLines out) {
		this.out = out;
	}

	/** The goals' rows: none misattributed, every span within ±15 %, complete ≤ 1.5 s. */
	void goals(AccuracyResult accuracy) {
		this.out.goal("Misattributed samples: 0 %",
				String.format(Locale.ROOT, "%s (%d of %d samples in a hot method)",
						MarkdownLines.percent(accuracy.misattributedRate()), accuracy.misattributedSamples(),
						accuracy.totalSamples()),
				accuracy.misattributedSamples() == 0);
		this.out.goal("Samples within ±15 % of the expected count",
				String.format(Locale.ROOT,
						"%d of %d spans; samples/expected from %.2f to %.2f, all spans together %.3f",
						accuracy.spansWithin(0.15), accuracy.spans().size(), accuracy.minCountRatio(),
						accuracy.maxCountRatio(), accuracy.totalSamples() / accuracy.totalExpected()),
				accuracy.spansWithin(0.15) == accuracy.spans().size());
		Duration max = accuracy.maxCompletionLatency();
		this.out.goal("Profile complete ≤ 1.5 s after the span ended",
				String.format(Locale.ROOT, "median %s, max %s%s", millis(accuracy.medianCompletionLatency()),
						millis(max), (accuracy.neverComplete() > 0) ? ", " + accuracy.neverComplete() + " never" : ""),
				max != null && accuracy.neverComplete() == 0 && max.toMillis() <= 1500);
	}

	/** The method and the figures, under a heading of their own. */
	void figures(AccuracyResult accuracy, int cores) {
		var p = accuracy.parameters();
		this.out.line("## Accuracy");
		this.out.line();
		this.out.line(String.format(Locale.ROOT, "%d threads on %d cores, each running %d spans one after another; "
				+ "each span burns a CPU time fixed in advance (%d, %d, %d or %d ms) in one of eight recognisable "
				+ "methods (`HotMethods.hot0`..`hot7`), the threads changing span at different moments. Interval %d ms, "
				+ "event `%s`, dump interval %d ms (fixed for this benchmark so that rounds compare, not "
				+ "today's defaults). Expected samples of a span: the CPU time its thread "
				+ "used inside it (thread CPU clock) over the interval. A sample in another span's hot method is "
				+ "misattributed. A watcher polls every 2 ms for the moment each ended span is reported complete "
				+ "(`AccuracyBenchmark`).", p.threads(), cores, p.rounds(), p.cpuPerWeight().toMillis(),
				2 * p.cpuPerWeight().toMillis(), 3 * p.cpuPerWeight().toMillis(), 4 * p.cpuPerWeight().toMillis(),
				p.interval().toMillis(), accuracy.event(), p.dumpInterval().toMillis()));
		this.out.line();
		this.out.line("| figure | value |");
		this.out.line("|---|---|");
		this.out.line(String.format(Locale.ROOT, "| spans | %d |", accuracy.spans().size()));
		this.out.line(String.format(Locale.ROOT, "| samples attributed / expected | %d / %.1f |",
				accuracy.totalSamples(), accuracy.totalExpected()));
		this.out.line(String.format(Locale.ROOT, "| misattributed samples | %d (%s) |", accuracy.misattributedSamples(),
				MarkdownLines.percent(accuracy.misattributedRate())));
		this.out.line(String.format(Locale.ROOT, "| spans within ±15 %% of expected | %d of %d |",
				accuracy.spansWithin(0.15), accuracy.spans().size()));
		this.out.line(String.format(Locale.ROOT, "| samples / expected per span | %.3f .. %.3f |",
				accuracy.minCountRatio(), accuracy.maxCountRatio()));
		this.out.line(String.format(Locale.ROOT, "| samples dropped as unknown (all threads) | %d |",
				accuracy.unknownSamples()));
		this.out.line(String.format(Locale.ROOT, "| span end → profile complete | median %s, max %s |",
				millis(accuracy.medianCompletionLatency()), millis(accuracy.maxCompletionLatency())));
		this.out.line(String.format(Locale.ROOT, "| samples that arrived after a span was reported complete | %d |",
				accuracy.samplesAfterComplete()));
		this.out.line();
	}

	private static String millis(Duration duration) {
		return (duration != null) ? String.format(Locale.ROOT, "%.0f ms", duration.toNanos() / 1e6) : "—";
	}

}
