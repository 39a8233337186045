package dev.spanprofile.benchmarks.report;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.spanprofile.benchmarks.accuracy.AccuracyResult;
import dev.spanprofile.benchmarks.hook.HookCost;
import dev.spanprofile.benchmarks.hook.HookCostResult;
import dev.spanprofile.benchmarks.memory.MemoryResult;
import dev.spanprofile.benchmarks.overhead.OverheadResult;
import dev.spanprofile.benchmarks.overhead.OverheadResult.Metric;
import dev.spanprofile.benchmarks.overhead.OverheadResult.Ratio;
import dev.spanprofile.benchmarks.overhead.ProfilerSetting;
import dev.spanprofile.benchmarks.overhead.TwinResult;
import dev.spanprofile.benchmarks.overhead.TwinResult.Measure;

/**
 * A run's figures as rows of a results file: every ratio with its spread, and the hook,
 * accuracy and memory figures the page quotes.
 */
public final class ResultFigures {

	/** How the suite's side-by-side copies are loaded. */
	public static final String CLOSED_LOOP = "closed loop";

	private static final double MIB = 1024 * 1024;

	private final LocalDate date;

	private final String commit;

	private final String machine;

	private final String command;

	private final List<Figure> figures = new ArrayList<>();

	private ResultFigures(LocalDate date, String commit, String machine, String command) {
		this.date = date;
		this.commit = commit;
		this.machine = machine;
		this.command = command;
	}

	/** Every figure of one run of the suite. */
	public static List<Figure> of(Results results, String commit) {
		ResultFigures rows = new ResultFigures(results.started().atOffset(ZoneOffset.UTC).toLocalDate(), commit,
				results.machine().description(), results.command());
		if (results.overhead() != null) {
			rows.overhead(results.overhead());
		}
		if (results.hook() != null) {
			rows.hook(results.hook());
		}
		if (results.accuracy() != null) {
			rows.accuracy(results.accuracy());
		}
		if (results.memory() != null) {
			rows.memory(results.memory());
		}
		return List.copyOf(rows.figures);
	}

	/**
	 * The figures of side-by-side runs outside the suite ({@code SwitchProbe --twin}),
	 * under {@code load}, e.g. {@code paced 300/s}.
	 */
	public static List<Figure> ofTwins(List<TwinResult> twins, String load, LocalDate date, String commit,
			String machine, String command) {
		ResultFigures rows = new ResultFigures(date, commit, machine, command);
		twins.forEach((twin) -> rows.twin(twin, load));
		return List.copyOf(rows.figures);
	}

	/** A measure's name in a results file, e.g. {@code cpu_per_request}. */
	public static String name(Measure measure) {
		return measure.name().toLowerCase(Locale.ROOT);
	}

	private void overhead(OverheadResult overhead) {
		List<ProfilerSetting> settings = new ArrayList<>(overhead.parameters().processSettings());
		overhead.parameters().switchSettings().stream().filter((s) -> !settings.contains(s)).forEach(settings::add);
		for (ProfilerSetting setting : settings) {
			for (Metric metric : Metric.values()) {
				ratio("separate-runs", setting, metric, overhead.processRatio(setting, metric));
				ratio("one-jvm-switched", setting, metric, overhead.switchRatio(setting, metric));
			}
		}
		overhead.twins().forEach((twin) -> twin(twin, CLOSED_LOOP));
	}

	private void ratio(String benchmark, ProfilerSetting setting, Metric metric, Ratio ratio) {
		if (ratio.count() > 0) {
			add(benchmark, "work", setting.label(), CLOSED_LOOP, metric.name().toLowerCase(Locale.ROOT), ratio.median(),
					Double.NaN, Double.NaN, ratio.min(), ratio.max(), ratio.count(), "ratio");
		}
	}

	private void twin(TwinResult twin, String load) {
		for (Measure measure : Measure.values()) {
			TwinResult.Spread s = twin.spread(measure);
			if (s.count() > 0) {
				add("side-by-side", twin.workload().label(), twin.setting().label(), load, name(measure), s.median(),
						s.lowerQuartile(), s.upperQuartile(), s.lowest(), s.highest(), s.count(), "ratio");
			}
		}
	}

	private void hook(HookCostResult hook) {
		hookVariant("System.nanoTime()", hook.clockRead(), hook.rounds());
		hookVariant("no hook", hook.bare(), hook.rounds());
		hookVariant("hook, profiler stopped", hook.stopped(), hook.rounds());
		hookVariant("hook, profiler recording", hook.recording(), hook.rounds());
	}

	private void hookVariant(String variant, HookCost.Measurement m, int rounds) {
		add("hook", "", variant, "", "ns_per_activation", m.nanos(), Double.NaN, Double.NaN, m.lowest(), m.highest(),
				rounds, "ns");
		add("hook", "", variant, "", "bytes_per_activation", m.bytes(), Double.NaN, Double.NaN, Double.NaN, Double.NaN,
				rounds, "B");
	}

	private void accuracy(AccuracyResult accuracy) {
		var p = accuracy.parameters();
		String setting = String.format(Locale.ROOT, "%s, %d ms, %d threads", accuracy.event(), p.interval().toMillis(),
				p.threads());
		single("accuracy", setting, "spans", accuracy.spans().size(), "count");
		single("accuracy", setting, "misattributed_share", accuracy.misattributedRate(), "share");
		single("accuracy", setting, "spans_within_15_percent", accuracy.spansWithin(0.15), "count");
		add("accuracy", "", setting, "", "samples_over_expected", accuracy.totalSamples() / accuracy.totalExpected(),
				Double.NaN, Double.NaN, accuracy.minCountRatio(), accuracy.maxCountRatio(), accuracy.spans().size(),
				"ratio");
		if (accuracy.medianCompletionLatency() != null) {
			single("accuracy", setting, "completion_latency_median", accuracy.medianCompletionLatency().toNanos() / 1e6,
					"ms");
			single("accuracy", setting, "completion_latency_max", accuracy.maxCompletionLatency().toNanos() / 1e6,
					"ms");
		}
	}

	private void memory(MemoryResult memory) {
		var p = memory.parameters();
		String setting = String.format(Locale.ROOT, "max-memory %.0f MiB, %d spans/s", p.maxBytes() / MIB,
				p.spansPerSecond());
		single("memory", setting, "bytes_per_span_real", memory.retainedBytesPerSpan(), "B");
		single("memory", setting, "bytes_per_span_estimated", memory.estimatedBytesPerSpan(), "B");
		single("memory", setting, "retained_heap", memory.retainedBytes() / MIB, "MiB");
		single("memory", setting, "budget", p.maxBytes() / MIB, "MiB");
	}

	private void single(String benchmark, String setting, String measure, double value, String unit) {
		add(benchmark, "", setting, "", measure, value, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, unit);
	}

	private void add(String benchmark, String application, String setting, String load, String measure, double median,
			double lowerQuartile, double upperQuartile, double lowest, double highest, int count, String unit) {
		this.figures.add(new Figure(this.date, this.commit, benchmark, application, setting, load, measure, median,
				lowerQuartile, upperQuartile, lowest, highest, count, unit, this.machine, this.command));
	}

}
