package dev.spanprofile;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Lock waits with names a test can find in a lock graph, each returning what the waiting
 * thread measured itself.
 */
public final class Contention {

	/**
	 * How far outside the wait the JVM times one waiting thread's own clock reads may
	 * lie: the moment before it contends (spinning first), and on a loaded machine
	 * however long it lost the CPU there. A two-core CI machine once showed 6.5 ms a wait
	 * on average over four 50 ms waits.
	 */
	static final long SLACK_PER_WAIT_NANOS = 10_000_000;

	private Contention() {
	}

	/**
	 * The least a profiler recording every contended wait with its own duration can have
	 * recorded of {@code waits} waits that the waiting thread measured at
	 * {@code measured} nanoseconds in all. The most is {@code measured} itself.
	 */
	public static double leastRecorded(long measured, int waits) {
		return measured - (double) waits * SLACK_PER_WAIT_NANOS;
	}

	/**
	 * @return nanoseconds until the monitor was entered
	 */
	public static long enterContendedMonitor(Object monitor) {
		long start = System.nanoTime();
		synchronized (monitor) {
			return System.nanoTime() - start;
		}
	}

	/**
	 * @return nanoseconds until the lock was taken
	 */
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

	/**
	 * Another thread takes {@code monitor} and holds it for {@code holdMillis}; once it
	 * holds it, {@code waiter} runs here. Returns when the holder has let go.
	 * @return what {@code waiter} returned
	 */
	public static long whileMonitorHeld(Object monitor, long holdMillis, LongSupplier waiter)
			throws InterruptedException {
		return whileHeld((held) -> {
			synchronized (monitor) {
				held.run();
				holdFor(holdMillis);
			}
		}, waiter);
	}

	/** As {@link #whileMonitorHeld}, with a {@code ReentrantLock}. */
	public static long whileLockHeld(ReentrantLock lock, long holdMillis, LongSupplier waiter)
			throws InterruptedException {
		return whileHeld((held) -> {
			lock.lock();
			try {
				held.run();
				holdFor(holdMillis);
			}
			finally {
				lock.unlock();
			}
		}, waiter);
	}

	/**
	 * Run {@code holder} on another thread; it takes its lock and then calls its
	 * argument. Once it has, run {@code waiter} here, and return when the holder has
	 * ended.
	 * @return what {@code waiter} returned
	 */
	public static long whileHeld(Consumer<Runnable> holder, LongSupplier waiter) throws InterruptedException {
		AtomicBoolean held = new AtomicBoolean();
		Thread thread = new Thread(() -> holder.accept(() -> held.set(true)), "lock-holder");
		thread.start();
		// Spinning, not a latch: parking in a latch is a lock wait too, as long as
		// starting a thread takes on a loaded machine, and it would be the waiting
		// span's. A holder that died never holds: the wait is then uncontended and the
		// test's bounds say so.
		while (!held.get() && thread.isAlive()) {
			Thread.onSpinWait();
		}
		long waited = waiter.getAsLong();
		thread.join();
		return waited;
	}

	/**
	 * Sleep the full time even if interrupted: a holder must hold as long as the test
	 * needs the contention.
	 */
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
