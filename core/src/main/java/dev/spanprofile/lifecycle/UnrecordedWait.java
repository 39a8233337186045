package dev.spanprofile.lifecycle;

import java.io.IOException;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A wait that Flight Recorder does not record and another thread can end: how the
 * collector thread waits between ticks. Tests step one of their own.
 */
interface UnrecordedWait {

	/**
	 * On the waiting thread: return after {@code millis}, or sooner once {@link #wake} is
	 * called (also when it was called since the last wait ended).
	 */
	void upTo(long millis);

	/** Any thread: end the current wait, or the next one at once. */
	void wake();

	/** Once the waiting thread has ended, or been waited for long enough. */
	void close();

	/**
	 * A wait in a {@link Selector} with nothing registered rather than parked, asleep or
	 * in {@code Object.wait}: Flight Recorder records each of those over the waits'
	 * threshold with its stack, walked on the waiting thread and then parsed by the
	 * waits' stream, only for spanprofile to drop them; a select is not among the events
	 * it records. Where no selector can be opened it parks.
	 */
	static UnrecordedWait inSelector() {
		return new InSelector();
	}

	/** See {@link UnrecordedWait#inSelector()}. */
	final class InSelector implements UnrecordedWait {

		private static final System.Logger logger = System.getLogger(UnrecordedWait.class.getName());

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
					// Closed under it by a stop, or broken: park instead.
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
