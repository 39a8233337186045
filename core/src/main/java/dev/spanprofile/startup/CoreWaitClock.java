package dev.spanprofile.startup;

import dev.spanprofile.tracking.ThreadRunQueues;

/**
 * The calling thread's time so far runnable but not running, waiting for a core, read
 * where a step begins and ends on its thread; stepped by hand in tests.
 */
@FunctionalInterface
public interface CoreWaitClock {

	/** Where the time waiting for a core is not measured. */
	CoreWaitClock NONE = () -> -1;

	/**
	 * The calling thread's time waiting for a core so far in nanoseconds, negative where
	 * not read.
	 */
	long nanos();

	/**
	 * The start is over: let go of what the reads keep open; later reads may be negative.
	 */
	default void close() {
	}

	/**
	 * The kernel's per-thread figure (Linux's {@code /proc/thread-self/schedstat}), one
	 * read each time, each thread's file open until {@link #close()}.
	 */
	static CoreWaitClock ofKernel() {
		ThreadRunQueues queues = new ThreadRunQueues();
		return new CoreWaitClock() {

			@Override
			public long nanos() {
				return queues.now();
			}

			@Override
			public void close() {
				queues.close();
			}

		};
	}

}
