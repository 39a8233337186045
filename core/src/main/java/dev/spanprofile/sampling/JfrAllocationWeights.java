package dev.spanprofile.sampling;

import java.util.HashSet;
import java.util.Set;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

/**
 * What each {@code jdk.ObjectAllocationSample} of one stream weighs: the bytes its thread
 * allocated since the thread's previous sample, in this recording or any earlier one. A
 * thread's first sample in a stream stands for an unknown stretch, up to everything the
 * thread allocated since it started, and is left out. The stream's thread only.
 */
final class JfrAllocationWeights {

	/** Some 200 KB of thread ids at most. */
	private static final int MAX_ALLOCATING_THREADS = 4096;

	/** Threads that have had an allocation sample in this stream. */
	private final Set<Long> allocatingThreads = new HashSet<>();

	/** The sample's weight in bytes, or 0 to leave it out. */
	long weightOf(RecordedEvent event) {
		RecordedThread thread = JfrEventStream.sampledThread(event);
		if (thread == null) {
			return 0;
		}
		if (this.allocatingThreads.size() >= MAX_ALLOCATING_THREADS) {
			// Bounded: threads that ended stay in the set; starting afresh costs each
			// live thread one sample.
			this.allocatingThreads.clear();
		}
		if (this.allocatingThreads.add(thread.getJavaThreadId())) {
			return 0;
		}
		return Math.max(1, event.getLong("weight"));
	}

}
