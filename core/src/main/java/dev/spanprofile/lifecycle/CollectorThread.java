package dev.spanprofile.lifecycle;

import java.io.IOException;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.spanprofile.sampling.JfrWaitEngine;

/**
 * The collector thread: runs a task, waits a period, and again, until stopped.
 * <p>
 * It waits in a {@link Selector} with nothing registered rather than parked, asleep or in
 * {@code Object.wait}: Flight Recorder records each of those over the waits' threshold
 * with its stack, walked on this thread and then parsed by the waits' stream, only for
 * spanprofile to drop them; a select is not among the events it records. Where no
 * selector can be opened it parks.
 */
final class CollectorThread {

	private static final System.Logger logger = System.getLogger(CollectorThread.class.getName());

	private final Runnable task;

	private final long periodMillis;

	private final Selector selector;

	private final Thread thread;

	private volatile boolean stopping;

	CollectorThread(Runnable task, long periodMillis) {
		this.task = task;
		this.periodMillis = periodMillis;
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
		while (!this.stopping) {
			waitOnePeriod();
			if (!this.stopping) {
				this.task.run();
			}
		}
	}

	private void waitOnePeriod() {
		if (this.selector != null) {
			try {
				this.selector.select(this.periodMillis);
				return;
			}
			catch (IOException | RuntimeException ex) {
				// Closed under it by stop(), or broken: park instead.
			}
		}
		LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(this.periodMillis));
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
