package dev.spanprofile;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Lock waits with names a test can find in a lock graph, each returning what the waiting thread measured itself.
 */
public final class Contention {

	private Contention() {
	}

	/** @return nanoseconds until the monitor was entered */
	public static long enterContendedMonitor(Object monitor) {
		long start = System.nanoTime();
		synchronized (monitor) {
			return System.nanoTime() - start;
		}
	}

	/** @return nanoseconds until the lock was taken */
	public static long lockContendedReentrantLock(ReentrantLock lock) {
		long start = System.nanoTime();
		lock.lock();
		try {
			return System.nanoTime() - start;
		}
		finally {
			lock.unlock();
		}
	}

	/** Sleep the full time even if interrupted: a holder must hold as long as the test needs the contention. */
	public static void holdFor(long millis) {
		long end = System.nanoTime() + millis * 1_000_000;
		for (long left; (left = end - System.nanoTime()) > 0;) {
			try {
				Thread.sleep(Math.max(1, left / 1_000_000));
			}
			catch (InterruptedException ex) {
				// keep holding
			}
		}
	}

}
