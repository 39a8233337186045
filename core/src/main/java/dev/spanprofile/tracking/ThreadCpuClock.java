package dev.spanprofile.tracking;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The calling thread's own CPU clock, read (when exact CPU time is asked for) where a
 * thread enters or leaves a span: the difference is exactly the CPU time the thread spent
 * for that request, which sampling can only estimate (and the {@code ctimer} event
 * undercounts when threads outnumber cores). Read at those two points only, and not where
 * a thread comes straight back into the span it just left
 * ({@link ThreadActivity#CLOCK_CONTINUED}): one read is a system call (0.2 to 1 µs),
 * against a few nanoseconds for the change point itself, and entering the kernel gives
 * the scheduler a chance to switch threads, which on a busy machine costs far more than
 * the call.
 */
final class ThreadCpuClock {

	/** What a read returns where the clock cannot be read. */
	static final long UNREAD = -1;

	private static final ThreadMXBean THREADS = supportedThreads();

	private ThreadCpuClock() {
	}

	/** The calling platform thread's CPU time in nanoseconds, or {@link #UNREAD}. */
	static long now() {
		if (THREADS == null) {
			return UNREAD;
		}
		try {
			long nanos = THREADS.getCurrentThreadCpuTime();
			return (nanos >= 0) ? nanos : UNREAD;
		}
		catch (RuntimeException ex) {
			// Disabled at run time, or a virtual thread on a JDK that refuses to answer
			// for one.
			return UNREAD;
		}
	}

	private static ThreadMXBean supportedThreads() {
		try {
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			return threads.isCurrentThreadCpuTimeSupported() ? threads : null;
		}
		catch (RuntimeException | LinkageError ex) {
			return null;
		}
	}

}
