package dev.spanprofile.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.spanprofile.benchmarks.accuracy.AccuracyBenchmark;
import dev.spanprofile.benchmarks.accuracy.AccuracyParameters;
import dev.spanprofile.benchmarks.accuracy.AccuracyResult;
import dev.spanprofile.benchmarks.hook.HookCost;
import dev.spanprofile.benchmarks.hook.HookCostResult;
import dev.spanprofile.benchmarks.memory.MemoryParameters;
import dev.spanprofile.benchmarks.memory.MemoryResult;
import dev.spanprofile.benchmarks.memory.StoreMemoryBenchmark;
import dev.spanprofile.benchmarks.overhead.OverheadBenchmark;
import dev.spanprofile.benchmarks.overhead.OverheadParameters;
import dev.spanprofile.benchmarks.overhead.OverheadResult;
import dev.spanprofile.benchmarks.overhead.TwinParameters;
import dev.spanprofile.benchmarks.report.BenchmarkReport;
import dev.spanprofile.benchmarks.report.Machine;
import dev.spanprofile.benchmarks.report.PerformancePage;
import dev.spanprofile.benchmarks.report.ResultFigures;
import dev.spanprofile.benchmarks.report.Results;
import dev.spanprofile.benchmarks.report.ResultsFile;

/**
 * Runs every benchmark with its full parameters, writes the run's figures and report to
 * benchmarks/results/ and regenerates docs/performance.md from its template and every
 * results file; started by benchmarks/run.sh.
 * <p>
 * Arguments: {@code --results DIR} (default benchmarks/results), {@code --page FILE}
 * (default docs/performance.md), {@code --template FILE} (default
 * benchmarks/performance.md.template), {@code --commit ID} (the code measured, recorded
 * with each figure), {@code --logs DIR} for the benchmark application's output,
 * {@code --only hook,overhead,accuracy,memory} to run some of them, {@code --page-only}
 * to run none and only regenerate the page. A benchmark that fails is named in the
 * report; the others still run.
 */
public final class BenchmarkSuite {

	private static final List<String> ALL = List.of("hook", "accuracy", "memory", "overhead");

	private BenchmarkSuite() {
	}

	public static void main(String[] args) throws Exception {
		Path resultsDirectory = Path.of("benchmarks/results");
		Path page = Path.of("docs/performance.md");
		Path template = Path.of("benchmarks/performance.md.template");
		String commit = "";
		Path logs = Path.of("benchmarks/target/benchmark-logs");
		Set<String> only = new LinkedHashSet<>(ALL);
		boolean pageOnly = false;
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--results" -> resultsDirectory = Path.of(value(args, ++i));
				case "--page" -> page = Path.of(value(args, ++i));
				case "--template" -> template = Path.of(value(args, ++i));
				case "--commit" -> commit = value(args, ++i);
				case "--logs" -> logs = Path.of(value(args, ++i));
				case "--only" -> only = new LinkedHashSet<>(List.of(value(args, ++i).split(",")));
				case "--page-only" -> pageOnly = true;
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]
						+ "; expected --results DIR, --page FILE, --template FILE, --commit ID, --logs DIR, --only "
						+ String.join(",", ALL) + ", --page-only");
			}
		}
		if (!ALL.containsAll(only)) {
			throw new IllegalArgumentException("--only takes some of " + ALL + ", was " + only);
		}
		if (pageOnly) {
			writePage(template, resultsDirectory, page);
			progress("wrote " + page);
			return;
		}
		// Before anything can touch OpenTelemetry's context in this JVM.
		Profiling.requireActivationHook();
		Machine machine = Machine.current();
		Instant started = Instant.now();
		long start = System.nanoTime();
		Map<String, String> failures = new LinkedHashMap<>();
		HookCostResult hook = null;
		AccuracyResult accuracy = null;
		MemoryResult memory = null;
		OverheadResult overhead = null;
		if (only.contains("hook")) {
			progress("hook cost (JMH), about 3 minutes");
			try {
				hook = HookCost.run(4, 3, Duration.ofSeconds(1), true);
			}
			catch (Exception ex) {
				failed(failures, "hook", ex);
			}
		}
		if (only.contains("accuracy")) {
			progress("accuracy, about 15 s");
			try {
				accuracy = new AccuracyBenchmark(AccuracyParameters.full()).run();
			}
			catch (Exception ex) {
				failed(failures, "accuracy", ex);
			}
		}
		if (only.contains("memory")) {
			progress("memory, about 70 s");
			try {
				memory = new StoreMemoryBenchmark(MemoryParameters.full()).run();
			}
			catch (Exception ex) {
				failed(failures, "memory", ex);
			}
		}
		if (only.contains("overhead")) {
			progress("end-to-end overhead, about 85 minutes");
			try {
				overhead = new OverheadBenchmark(OverheadParameters.full(), TwinParameters.full(), logs).run();
			}
			catch (Exception ex) {
				failed(failures, "overhead", ex);
			}
		}
		String command = "benchmarks/run.sh" + (only.size() < ALL.size() ? " --only " + String.join(",", only) : "");
		Results results = new Results(machine, started, Duration.ofNanos(System.nanoTime() - start), command, hook,
				overhead, accuracy, memory, failures);
		String name = started.atOffset(ZoneOffset.UTC).toLocalDate() + "-suite";
		Files.createDirectories(resultsDirectory);
		Files.writeString(resultsDirectory.resolve(name + ".csv"),
				ResultsFile.write(ResultFigures.of(results, commit)));
		Files.writeString(resultsDirectory.resolve(name + ".md"), BenchmarkReport.render(results));
		writePage(template, resultsDirectory, page);
		progress("wrote " + resultsDirectory.resolve(name + ".csv") + ", its report beside it and " + page
				+ (failures.isEmpty() ? "" : "; failed: " + failures.keySet()));
		if (!failures.isEmpty()) {
			System.exit(1);
		}
	}

	/** The page from its template and the latest figure of each kind in the results. */
	static void writePage(Path template, Path resultsDirectory, Path page) throws java.io.IOException {
		String text = PerformancePage.render(Files.readString(template), ResultsFile.readAll(resultsDirectory));
		Files.createDirectories(page.toAbsolutePath().getParent());
		Files.writeString(page, text);
	}

	private static String value(String[] args, int index) {
		if (index >= args.length) {
			throw new IllegalArgumentException(args[index - 1] + " needs a value");
		}
		return args[index];
	}

	private static void failed(Map<String, String> failures, String name, Exception ex) {
		failures.put(name, ex.toString());
		System.err.println("Benchmark " + name + " failed:");
		ex.printStackTrace();
	}

	private static void progress(String message) {
		System.out.println("== spanprofile benchmarks: " + message);
	}

}
