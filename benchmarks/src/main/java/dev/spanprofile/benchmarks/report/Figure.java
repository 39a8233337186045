package dev.spanprofile.benchmarks.report;

import java.time.LocalDate;
import java.util.Locale;

/**
 * One measured figure, as a row of a results file under benchmarks/results/: what was
 * measured, on what, when, and its spread.
 *
 * @param date the day it was measured (UTC)
 * @param commit the commit of the code measured, abbreviated; empty if not known
 * @param benchmark which benchmark: {@code side-by-side}, {@code separate-runs},
 * {@code hook}, {@code accuracy}, {@code memory}
 * @param application the application under load ({@code page}, {@code work}), empty where
 * none
 * @param setting what was compared with profiling off, or the variant measured
 * @param load how the load was applied, e.g. {@code closed loop} or {@code paced 300/s};
 * empty where none
 * @param measure what the figure is, e.g. {@code cpu_per_request}
 * @param median the figure: the median over pairs, rounds or windows, or the one value
 * @param lowerQuartile the lower quartile, {@code NaN} where not reported
 * @param upperQuartile the upper quartile, {@code NaN} where not reported
 * @param lowest the lowest, {@code NaN} where not reported
 * @param highest the highest, {@code NaN} where not reported
 * @param count pairs, rounds or windows behind the figure, 0 for a single value
 * @param unit {@code ratio} (on / off), {@code ns}, {@code B}, {@code ms}, {@code share}
 * (a fraction), {@code count} or {@code MiB}
 * @param machine what it ran on
 * @param command how to measure it again
 */
public record Figure(LocalDate date, String commit, String benchmark, String application, String setting, String load,
		String measure, double median, double lowerQuartile, double upperQuartile, double lowest, double highest,
		int count, String unit, String machine, String command) {

	/** The columns of a results file, in order. */
	public static final String HEADER = "date,commit,benchmark,application,setting,load,measure,median,"
			+ "lower_quartile,upper_quartile,lowest,highest,count,unit,machine,command";

	/**
	 * Which figure this is, whatever its date: a later figure of the same key replaces
	 * it.
	 */
	public String key() {
		return String.join("|", this.benchmark, this.application, this.setting, this.load, this.measure);
	}

	/**
	 * The figure as the page writes it: the median, then the quartiles in brackets and
	 * the extremes in braces where known.
	 */
	public String formatted() {
		StringBuilder text = new StringBuilder(value(this.median));
		if (!Double.isNaN(this.lowerQuartile) && !Double.isNaN(this.upperQuartile)) {
			text.append(" [")
				.append(number(this.lowerQuartile))
				.append("..")
				.append(number(this.upperQuartile))
				.append(']');
		}
		if (!Double.isNaN(this.lowest) && !Double.isNaN(this.highest)) {
			text.append(" {").append(number(this.lowest)).append("..").append(number(this.highest)).append('}');
		}
		return text.toString();
	}

	/** The median alone, with its unit. */
	public String value() {
		return value(this.median);
	}

	private String value(double value) {
		return switch (this.unit) {
			case "ratio", "count" -> number(value);
			case "share" -> String.format(Locale.ROOT, "%.2f %%", value * 100);
			default -> number(value) + " " + this.unit;
		};
	}

	private String number(double value) {
		return switch (this.unit) {
			case "ratio" -> String.format(Locale.ROOT, "%.3f", value);
			case "ns", "MiB" -> String.format(Locale.ROOT, "%.1f", value);
			case "share" -> String.format(Locale.ROOT, "%.2f", value * 100);
			// A count per request (round trips) keeps its fraction; whole counts do not.
			case "count" -> String.format(Locale.ROOT, (value == Math.rint(value)) ? "%,.0f" : "%,.2f", value);
			default -> String.format(Locale.ROOT, "%,.0f", value);
		};
	}

}
