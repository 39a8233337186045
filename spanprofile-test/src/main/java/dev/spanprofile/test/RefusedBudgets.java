package dev.spanprofile.test;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The budgets that refused to decide in one test run (one JVM), counted as their tests
 * end and told once at the end of the run, so that a build that stays green says how many
 * of its budgets never decided. A test stops at its first refused budget: one per test.
 * Both closeable kinds: JUnit 5.12 (Boot 3.5) closes a store's {@code CloseableResource},
 * JUnit 6 an {@code AutoCloseable} and warns about the other.
 */
final class RefusedBudgets implements ExtensionContext.Store.CloseableResource, AutoCloseable {

	/** Tests named in the summary; the rest are counted. */
	private static final int LISTED = 10;

	private final PrintStream out;

	private final List<String> skipped = new ArrayList<>();

	private final List<String> failed = new ArrayList<>();

	private int profiledTests;

	RefusedBudgets(PrintStream out) {
		this.out = out;
	}

	synchronized void testRan() {
		this.profiledTests++;
	}

	synchronized void refused(String test, Inconclusive mode) {
		((mode == Inconclusive.FAIL) ? this.failed : this.skipped).add(test);
	}

	synchronized int count() {
		return this.skipped.size() + this.failed.size();
	}

	/** One line, or {@code null} when every budget decided. */
	synchronized String summary() {
		if (count() == 0) {
			return null;
		}
		StringBuilder line = new StringBuilder("spanprofile-test: ").append(count())
			.append(" of ")
			.append(this.profiledTests)
			.append(" profiled tests refused a budget (too few samples to decide)");
		describe(line, "skipped", this.skipped);
		describe(line, "failed", this.failed);
		if (this.failed.isEmpty()) {
			line.append(". -D").append(Inconclusive.PROPERTY).append("=fail makes them fail.");
		}
		else {
			line.append('.');
		}
		return line.toString();
	}

	private static void describe(StringBuilder line, String outcome, List<String> tests) {
		if (tests.isEmpty()) {
			return;
		}
		line.append("; ").append(tests.size()).append(' ').append(outcome).append(": ");
		line.append(String.join(", ", tests.subList(0, Math.min(LISTED, tests.size()))));
		if (tests.size() > LISTED) {
			line.append(" and ").append(tests.size() - LISTED).append(" more");
		}
	}

	@Override
	public void close() {
		String summary = summary();
		if (summary != null) {
			this.out.println(summary);
		}
	}

}
