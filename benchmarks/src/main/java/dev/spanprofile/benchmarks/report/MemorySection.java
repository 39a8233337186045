package dev.spanprofile.benchmarks.report;

import java.util.Locale;

import dev.spanprofile.benchmarks.memory.MemoryResult;

/**
 * The part of the report on the store's memory: the heap it really holds at a high span
 * rate against its budget, and against its own estimate.
 */
final class MemorySection {

	private static final double MIB = 1024 * 1024;

	private final MarkdownLines out;

	MemorySection(MarkdownLines out) {
		this.out = out;
	}

	/**
	 * The goal's row (real heap within the budget) and two reported rows: the store's
	 * estimate, and bytes per stored span.
	 */
	void goals(MemoryResult memory) {
		long budget = memory.parameters().maxBytes();
		long realMax = Math.max(memory.retainedBytes(), memory.maxCheckpointHeap());
		this.out.goal(
				String.format(Locale.ROOT, "Heap held by the store under its budget (%s) at %,d spans/s for %d s",
						mib(budget), memory.parameters().spansPerSecond(), memory.parameters().duration().toSeconds()),
				String.format(Locale.ROOT, "%s retained at the end, at most %s heap growth at checkpoints",
						mib(memory.retainedBytes()), mib(memory.maxCheckpointHeap())),
				realMax <= budget);
		this.out
			.line(String.format(Locale.ROOT, "| The store's own estimate against the same budget | at most %s | %s |",
					mib(memory.maxEstimate()), (memory.maxEstimate() <= budget) ? "within" : "over, reported"));
		this.out.line(
				String.format(Locale.ROOT, "| Bytes per stored span | %.0f B real, %.0f B estimated by the store | — |",
						memory.retainedBytesPerSpan(), memory.estimatedBytesPerSpan()));
	}

	/** The method and the checkpoints' figures, under a heading of their own. */
	void figures(MemoryResult memory) {
		var p = memory.parameters();
		this.out.line("## Memory");
		this.out.line();
		this.out.line(String.format(Locale.ROOT, "%d threads create %,d spans/s for %d s (achieved: %,.0f spans/s): "
				+ "each request a server span with one child, some CPU in varying call stacks inside, sampled at 10 ms. "
				+ "Store limits: `max-memory` %s, `max-spans` %,d (out of reach, so memory is the binding bound). "
				+ "Real heap is measured as heap in use after a full GC minus the same before the run (at checkpoints "
				+ "during the run), and at the end as the heap freed when the engine is dropped "
				+ "(`StoreMemoryBenchmark`).", p.threads(), p.spansPerSecond(), p.duration().toSeconds(),
				memory.spansPerSecond(), mib(p.maxBytes()), p.maxSpans()));
		this.out.line();
		this.out.line("| at | spans stored | store's estimate | real heap growth |");
		this.out.line("|---|---|---|---|");
		for (MemoryResult.Checkpoint checkpoint : memory.checkpoints()) {
			this.out.line(String.format(Locale.ROOT, "| %d s | %,d | %s | %s |", checkpoint.at().toSeconds(),
					checkpoint.spans(), mib(checkpoint.estimate()), mib(checkpoint.heapOverBaseline())));
		}
		this.out.line(String.format(Locale.ROOT, "| end | %,d | %s | %s retained |", memory.storedSpans(),
				mib(memory.finalEstimate()), mib(memory.retainedBytes())));
		this.out.line();
		this.out.line(String.format(Locale.ROOT,
				"Largest estimate seen (polled every 20 ms): %s with up to %,d spans stored. "
						+ "Per stored span: %.0f B real, %.0f B estimated.",
				mib(memory.maxEstimate()), memory.maxSpansStored(), memory.retainedBytesPerSpan(),
				memory.estimatedBytesPerSpan()));
		this.out.line();
	}

	private static String mib(long bytes) {
		return String.format(Locale.ROOT, "%.1f MiB", bytes / MIB);
	}

}
