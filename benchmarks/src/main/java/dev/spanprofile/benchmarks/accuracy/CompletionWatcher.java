package dev.spanprofile.benchmarks.accuracy;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.locks.LockSupport;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.profile.SampleKind;
import dev.spanprofile.store.SpanRecord;

/**
 * Polls the engine every 2 ms, as a user refreshing the endpoint would, and notes for
 * each ended span when it is first reported complete and how many samples it had then (a
 * complete profile must not grow afterwards).
 */
final class CompletionWatcher extends Thread {

	private static final long POLL_NANOS = 2_000_000;

	private final SpanProfiler profiler;

	private final Collection<AccuracyBenchmark.SpanRun> ended;

	private volatile boolean done;

	CompletionWatcher(SpanProfiler profiler, Collection<AccuracyBenchmark.SpanRun> ended) {
		super("accuracy-completion-watcher");
		setDaemon(true);
		this.profiler = profiler;
		this.ended = ended;
	}

	@Override
	public void run() {
		while (!this.done) {
			long completeUpTo = this.profiler.completeUpToEpochNanos();
			long now = System.nanoTime();
			for (AccuracyBenchmark.SpanRun run : this.ended) {
				if (run.completeAfterNanos() != null) {
					continue;
				}
				SpanRecord record = this.profiler.store().find(run.spanId());
				if (record != null && !record.inFlight() && record.endEpochNanos() <= completeUpTo) {
					run.completed(Math.max(0, now - run.endNanos()),
							record.ownSampleCount(dev.spanprofile.profile.SampleKind.CPU));
				}
			}
			LockSupport.parkNanos(POLL_NANOS);
		}
	}

	/**
	 * Wait until {@code expected} spans have ended and all are complete, or the timeout
	 * passed; then stop.
	 */
	void awaitAllComplete(int expected, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline && !allComplete(expected)) {
			Thread.sleep(10);
		}
		this.done = true;
		join();
	}

	private boolean allComplete(int expected) {
		if (this.ended.size() < expected) {
			return false;
		}
		for (AccuracyBenchmark.SpanRun run : this.ended) {
			if (run.completeAfterNanos() == null) {
				return false;
			}
		}
		return true;
	}

}
