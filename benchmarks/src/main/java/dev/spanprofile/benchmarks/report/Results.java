package dev.spanprofile.benchmarks.report;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import dev.spanprofile.benchmarks.accuracy.AccuracyResult;
import dev.spanprofile.benchmarks.hook.HookCostResult;
import dev.spanprofile.benchmarks.memory.MemoryResult;
import dev.spanprofile.benchmarks.overhead.OverheadResult;

/**
 * Everything one run of the suite measured; a benchmark that failed has no result and an
 * entry in {@code failures}.
 */
public record Results(Machine machine, Instant started, Duration took, String command, HookCostResult hook,
		OverheadResult overhead, AccuracyResult accuracy, MemoryResult memory, Map<String, String> failures) {

}
