package dev.spanprofile.benchmarks.overhead;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What {@link TwinSwitch} measured for one setting of one application: one ratio per
 * measure and switch pair.
 *
 * @param workload the application under load
 * @param setting what was switched on in one copy while the other ran with profiling off
 * @param pairs per pair, the on/off ratios in the order of {@link Measure}
 */
public record TwinResult(Workload workload, ProfilerSetting setting, List<double[]> pairs) {

	/** The measures compared, in the order of a pair's ratios. */
	public enum Measure {

		CPU_PER_REQUEST("CPU per request"), CPU_WITHOUT_JIT("CPU per request without the JIT compiler threads"),
		REQUEST_THREADS("request threads' CPU per request"), THROUGHPUT("throughput"), P99("p99 latency");

		private final String title;

		Measure(String title) {
			this.title = title;
		}

		public String title() {
			return this.title;
		}

	}

	/** The spread of one measure's ratios over the pairs. */
	public Spread spread(Measure measure) {
		List<Double> values = new ArrayList<>();
		for (double[] ratios : this.pairs) {
			values.add(ratios[measure.ordinal()]);
		}
		if (values.isEmpty()) {
			return new Spread(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
		}
		Collections.sort(values);
		return new Spread(quantile(values, 0.5), quantile(values, 0.25), quantile(values, 0.75), values.get(0),
				values.get(values.size() - 1), values.size());
	}

	/** Linear interpolation between the closest ranks of sorted {@code values}. */
	static double quantile(List<Double> values, double q) {
		double position = q * (values.size() - 1);
		int below = (int) Math.floor(position);
		int above = Math.min(values.size() - 1, below + 1);
		return values.get(below) + (values.get(above) - values.get(below)) * (position - below);
	}

	/** Median, quartiles and extremes of the pairs' ratios. */
	public record Spread(double median, double lowerQuartile, double upperQuartile, double lowest, double highest,
			int count) {

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "%.3f [%.3f..%.3f] {%.3f..%.3f}", this.median, this.lowerQuartile,
					this.upperQuartile, this.lowest, this.highest);
		}

	}

}
