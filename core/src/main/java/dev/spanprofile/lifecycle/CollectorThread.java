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
 * selector can be opened it parks. How it waits is a parameter ({@link Wait}), so that
 * tests step its waits instead of sleeping.
 */
final class CollectorThread {

	private static final System.Logger logger = System.getLogger(CollectorThread.class.getName());

	/** Runs once per tick; returns the milliseconds to wait before the next. */
	private final LongSupplier task;

	private final Wait wait;

	private final long firstWaitMillis;

	private final Thread thread;

	private volatile boolean stopping;

	CollectorThread(LongSupplier task, long firstWaitMillis) {
		this(task, firstWaitMillis, new SelectorWait());
	}

	/** As the other, waiting with {@code wait}: a test's, which it steps. */
	CollectorThread(LongSupplier task, long firstWaitMillis, Wait wait) {
		this.task = task;
		this.firstWaitMillis = firstWaitMillis;
		this.wait = wait;
		this.thread = new Thread(this::run, JfrWaitEngine.COLLECTOR_THREAD);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void run() {
		long waitMillis = this.firstWaitMillis;
		while (!this.stopping) {
			this.wait.upTo(Math.max(1, waitMillis));
			if (!this.stopping) {
				waitMillis = this.task.getAsLong();
			}
		}
	}

	/**
	 * Run the task now rather than at the end of the wait (any thread; a system call when
	 * the collector waits).
	 */
	void wakeUp() {
		this.wait.wake();
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
		this.wait.wake();
		this.thread.join(timeoutMillis);
		this.wait.close();
	}

	/** How the collector thread waits between runs. */
	interface Wait {

		/**
		 * On the collector thread: return after {@code millis}, or sooner once
		 * {@link #wake} is called (also when it was called since the last wait ended).
		 */
		void upTo(long millis);

		/** Any thread: end the current wait, or the next one at once. */
		void wake();

		/** After the thread has ended. */
		void close();

	}

	/**
	 * Waits in a {@link Selector} with nothing registered; parks where none can be
	 * opened.
	 */
	static final class SelectorWait implements Wait {

		private final Selector selector = openSelector();

		private volatile Thread waiter;

		private volatile boolean woken;

		private static Selector openSelector() {
			try {
				return Selector.open();
			}
			catch (IOException ex) {
				logger.log(System.Logger.Level.DEBUG, "spanprofile: the collector parks between cycles: " + ex);
				return null;
			}
		}

		@Override
		public void upTo(long millis) {
			if (this.selector != null) {
				try {
					this.selector.select(millis);
					return;
				}
				catch (IOException | RuntimeException ex) {
					// Closed under it by stop(), or broken: park instead.
				}
			}
			this.waiter = Thread.currentThread();
			// A wake-up before the waiter was known could not unpark it: it is
			// remembered instead.
			if (!this.woken) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(millis));
			}
			this.woken = false;
		}

		@Override
		public void wake() {
			if (this.selector != null) {
				this.selector.wakeup();
			}
			this.woken = true;
			Thread parked = this.waiter;
			if (parked != null) {
				LockSupport.unpark(parked);
			}
		}

		@Override
		public void close() {
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

}
