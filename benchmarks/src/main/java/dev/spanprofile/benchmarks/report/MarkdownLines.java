package dev.spanprofile.benchmarks.report;

import java.util.Locale;

/**
 * The text of a run's report as its sections write it, line by line, and the one row
 * shape they share: a goal with what was measured and whether that meets it; and how they
 * write a share.
 */
final class MarkdownLines {

	/** A share as the report writes it, two decimals; a dash when there was none. */
	static String percent(double fraction) {
		return Double.isNaN(fraction) ? "—" : String.format(Locale.ROOT, "%.2f %%", fraction * 100);
	}

	private final StringBuilder text = new StringBuilder();

	void line(String line) {
		this.text.append(line).append('\n');
	}

	void line() {
		this.text.append('\n');
	}

	void goal(String goal, String measured, boolean met) {
		line("| " + goal + " | " + measured + " | " + (met ? "met" : "**not met**") + " |");
	}

	@Override
	public String toString() {
		return this.text.toString();
	}

}
