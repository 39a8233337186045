package dev.spanprofile.lifecycle;

import java.io.IOException;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import dev.spanprofile.sampling.JfrWaitEngine;

/**
 * The collector thread: runs a task, waits as long as the task says or until woken up,
 * and again, until stopped.
 * <p>
 * It waits in a {@link Selector} with nothing registered rather than parked, asleep or in
 * {@code Object.wait}: Flight Recorder records each of those over the waits' threshold
 * with its stack, walked on this thread and then parsed by the waits' stream, only for
 * spanprofile to drop them; a select is not among the events it records. Where no
 * selector can be opened it parks.
 */
final class CollectorThread {

	private static final System.Logger logger = System.getLogger(CollectorThread.class.getName());

	/** Runs once per tick; returns the milliseconds to wait before the next. */
	private final LongSupplier task;

	private final Selector selector;

	private final long firstWaitMillis;

	private final Thread thread;

	private volatile boolean stopping;

	CollectorThread(LongSupplier task, long firstWaitMillis) {
		this.task = task;
		this.firstWaitMillis = firstWaitMillis;
		this.selector = openSelector();
		this.thread = new Thread(this::run, JfrWaitEngine.COLLECTOR_THREAD);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private static Selector openSelector() {
		try {
			return Selector.open();
		}
		catch (IOException ex) {
			logger.log(System.Logger.Level.DEBUG, "spanprofile: the collector parks between cycles: " + ex);
			return null;
		}
	}

	private void run() {
		long waitMillis = this.firstWaitMillis;
		while (!this.stopping) {
			waitUpTo(Math.max(1, waitMillis));
			if (!this.stopping) {
				waitMillis = this.task.getAsLong();
			}
		}
	}

	private void waitUpTo(long millis) {
		if (this.selector != null) {
			try {
				this.selector.select(millis);
				return;
			}
			catch (IOException | RuntimeException ex) {
				// Closed under it by stop(), or broken: park instead.
			}
		}
		LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
	}

	/**
	 * Run the task now rather than at the end of the wait (any thread; a system call when
	 * the collector waits).
	 */
	void wakeUp() {
		if (this.selector != null) {
			this.selector.wakeup();
		}
		else {
			LockSupport.unpark(this.thread);
		}
	}

	/** Whether the thread is still alive (for tests). */
	boolean isAlive() {
		return this.thread.isAlive();
	}

	/**
	 * No further run starts; a run in progress finishes, waited for up to
	 * {@code timeoutMillis}.
	 */
	void stop(long timeoutMillis) throws InterruptedException {
		this.stopping = true;
		if (this.selector != null) {
			this.selector.wakeup();
		}
		LockSupport.unpark(this.thread);
		this.thread.join(timeoutMillis);
		if (this.selector != null) {
			try {
				this.selector.close();
			}
			catch (IOException ex) {
				// Nothing registered: nothing left open.
			}
		}
	}

}
