package dev.spanprofile.benchmarks.report;

/**
 * The text of docs/benchmarks.md as its sections write it, line by line, and the one row
 * shape they share: a goal with what was measured and whether that meets it.
 */
final class MarkdownLines {

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
