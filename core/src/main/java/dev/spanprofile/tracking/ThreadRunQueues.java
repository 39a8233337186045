package dev.spanprofile.tracking;

import java.util.ArrayList;
import java.util.List;

/**
 * Each thread's own run-queue wait ({@link RunQueueClock}: how long it has been runnable
 * but not running, waiting for a core), read by the thread itself for as long as
 * something lasts (the application's start), each thread's file kept open between its
 * reads and all of them closed by {@link #close()}.
 */
public final class ThreadRunQueues {

	/** What a read returns where the figure cannot be read. */
	public static final long UNREAD = RunQueueClock.UNREAD;

	private final ThreadLocal<Reader> readers = new ThreadLocal<>();

	/** Every thread's reader, to close them all (guarded by itself). */
	private final List<Reader> all = new ArrayList<>();

	private volatile boolean closed;

	/** Whether every thread can read its own figure here. */
	public static boolean available() {
		return RunQueueClock.available();
	}

	/** Why the figure cannot be read here, or {@code null} where it can. */
	public static String unavailableReason() {
		return RunQueueClock.unavailableReason();
	}

	/**
	 * The calling thread's run-queue wait so far in nanoseconds; {@link #UNREAD} where it
	 * cannot be read, or once {@link #close closed}.
	 */
	public long now() {
		Reader reader = this.readers.get();
		if (this.closed) {
			if (reader != null) {
				this.readers.remove();
			}
			return UNREAD;
		}
		if (reader == null) {
			reader = new Reader();
			synchronized (this.all) {
				if (this.closed) {
					return UNREAD;
				}
				this.all.add(reader);
			}
			this.readers.set(reader);
		}
		return reader.now();
	}

	/**
	 * Any thread: close every thread's file; later reads return {@link #UNREAD} (and let
	 * their thread's reader go).
	 */
	public void close() {
		List<Reader> readers;
		synchronized (this.all) {
			this.closed = true;
			readers = new ArrayList<>(this.all);
			this.all.clear();
		}
		for (Reader reader : readers) {
			reader.close();
		}
	}

	/**
	 * One thread's clock: its reads and its closing exclude each other, so that a read
	 * racing with {@link ThreadRunQueues#close} does not open the file again.
	 */
	private static final class Reader {

		private final RunQueueClock clock = new RunQueueClock();

		private boolean closed;

		synchronized long now() {
			return this.closed ? UNREAD : this.clock.now();
		}

		synchronized void close() {
			this.closed = true;
			this.clock.close();
		}

	}

}
