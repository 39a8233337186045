package dev.spanprofile.sampling;

import dev.spanprofile.tracking.SpanThreadListener;
import one.profiler.AsyncProfiler;

/**
 * Keeps async-profiler's wall-clock thread filter equal to the set of threads inside a
 * span: idle pool threads are not sampled at all, so wall-clock profiling costs in
 * proportion to the traced work.
 */
final class WallClockThreadFilter implements SpanThreadListener {

	private final AsyncProfiler profiler;

	WallClockThreadFilter(AsyncProfiler profiler) {
		this.profiler = profiler;
	}

	@Override
	public void entered(Thread thread) {
		this.profiler.addThread(thread);
	}

	@Override
	public void left(Thread thread) {
		this.profiler.removeThread(thread);
	}

}
