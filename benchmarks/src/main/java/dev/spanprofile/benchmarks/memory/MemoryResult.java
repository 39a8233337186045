package dev.spanprofile.benchmarks.memory;

import java.time.Duration;
import java.util.List;

/**
 * @param spansCreated spans started and ended during the run
 * @param maxEstimate the store's largest own estimate, polled every 20 ms
 * @param maxSpansStored the most spans stored at once
 * @param checkpoints heap in use after a full GC, minus the same before the run, at
 * points during the run
 * @param storedSpans spans in the store at the end
 * @param finalEstimate the store's estimate at the end
 * @param retainedBytes heap freed by dropping the engine at the end: what the store
 * really held
 */
public record MemoryResult(MemoryParameters parameters, long spansCreated, Duration elapsed, long maxEstimate,
		long maxSpansStored, List<Checkpoint> checkpoints, int storedSpans, long finalEstimate, long retainedBytes) {

	MemoryResult withRetained(long bytes) {
		return new MemoryResult(this.parameters, this.spansCreated, this.elapsed, this.maxEstimate, this.maxSpansStored,
				this.checkpoints, this.storedSpans, this.finalEstimate, bytes);
	}

	public double spansPerSecond() {
		return this.spansCreated / (this.elapsed.toNanos() / 1e9);
	}

	public double retainedBytesPerSpan() {
		return (this.storedSpans > 0) ? this.retainedBytes / (double) this.storedSpans : Double.NaN;
	}

	public double estimatedBytesPerSpan() {
		return (this.storedSpans > 0) ? this.finalEstimate / (double) this.storedSpans : Double.NaN;
	}

	/** Largest real heap growth seen at a checkpoint. */
	public long maxCheckpointHeap() {
		return this.checkpoints.stream().mapToLong(Checkpoint::heapOverBaseline).max().orElse(0);
	}

	/**
	 * @param at time into the run
	 * @param spans spans stored then
	 * @param estimate the store's estimate then
	 * @param heapOverBaseline heap in use after a full GC minus the same before the run
	 */
	public record Checkpoint(Duration at, int spans, long estimate, long heapOverBaseline) {

	}

}
