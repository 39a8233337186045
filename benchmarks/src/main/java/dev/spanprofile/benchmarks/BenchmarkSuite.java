package dev.spanprofile.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
import dev.spanprofile.benchmarks.report.Results;

/**
 * Runs every benchmark with its full parameters and writes the report; started by
 * benchmarks/run.sh.
 * <p>
 * Arguments: {@code --out FILE} (default docs/benchmarks.md), {@code --logs DIR} for the
 * benchmark application's output, {@code --only hook,overhead,accuracy,memory} to run
 * some of them. A benchmark that fails is named in the report; the others still run.
 */
public final class BenchmarkSuite {

	private static final List<String> ALL = List.of("hook", "accuracy", "memory", "overhead");

	private BenchmarkSuite() {
	}

	public static void main(String[] args) throws Exception {
		// Before anything can touch OpenTelemetry's context in this JVM.
		Profiling.requireActivationHook();
		Path out = Path.of("docs/benchmarks.md");
		Path logs = Path.of("benchmarks/target/benchmark-logs");
		Set<String> only = new LinkedHashSet<>(ALL);
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--out" -> out = Path.of(value(args, ++i));
				case "--logs" -> logs = Path.of(value(args, ++i));
				case "--only" -> only = new LinkedHashSet<>(List.of(value(args, ++i).split(",")));
				default -> throw new IllegalArgumentException("Unknown argument " + args[i]
						+ "; expected --out FILE, --logs DIR, --only " + String.join(",", ALL));
			}
		}
		if (!ALL.containsAll(only)) {
			throw new IllegalArgumentException("--only takes some of " + ALL + ", was " + only);
		}
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
		Files.createDirectories(out.toAbsolutePath().getParent());
		Files.writeString(out, BenchmarkReport.render(results) + keptPart(out));
		progress("wrote " + out + (failures.isEmpty() ? "" : "; failed: " + failures.keySet()));
		if (!failures.isEmpty()) {
			System.exit(1);
		}
	}

	/**
	 * The part of the report below {@link BenchmarkReport#KEPT_MARKER}: analyses measured
	 * with {@code SwitchProbe} and written by hand, which a run of the suite does not
	 * repeat and so must not erase.
	 */
	static String keptPart(Path out) throws java.io.IOException {
		if (!Files.isRegularFile(out)) {
			return "";
		}
		String existing = Files.readString(out);
		int marker = existing.indexOf(BenchmarkReport.KEPT_MARKER);
		return (marker >= 0) ? "\n" + existing.substring(marker) : "";
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
