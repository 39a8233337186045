package dev.spanprofile.upload;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * Uploads items one at a time on its own thread, so that whoever produces them never
 * waits for the network. At most {@code capacity} items wait; when the server is away
 * longer than that, the oldest are dropped (and counted), so an outage costs bounded
 * memory. An outage is logged once when the first attempt fails and once when uploads
 * work again, however many attempts fail in between.
 *
 * @param <T> what is uploaded
 */
public final class UploadQueue<T> {

	private static final System.Logger logger = System.getLogger(UploadQueue.class.getName());

	private final Uploader<T> uploader;

	private final int capacity;

	private final String serverForLogs;

	private final ArrayDeque<T> queue;

	private final Thread thread;

	private final LongAdder uploaded = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private final LongAdder dropped = new LongAdder();

	private volatile boolean outage;

	private volatile boolean lastAttemptFailed;

	private long failedAttemptsInOutage;

	/**
	 * @param uploader sends one item, retrying as it sees fit, and reports each failed
	 * attempt to {@link #attemptFailed}
	 * @param capacity most items kept waiting
	 * @param serverForLogs where items go, as logs may show it (no credentials)
	 * @param threadName name of the upload thread
	 */
	public UploadQueue(Uploader<T> uploader, int capacity, String serverForLogs, String threadName) {
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
		}
		this.uploader = uploader;
		this.capacity = capacity;
		this.serverForLogs = serverForLogs;
		this.queue = new ArrayDeque<>(capacity);
		this.thread = new Thread(this::uploadLoop, threadName);
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Queue {@code item}, dropping the oldest waiting one when full. Never blocks on the
	 * network.
	 */
	public void add(T item) {
		synchronized (this.queue) {
			if (this.queue.size() >= this.capacity) {
				this.queue.pollFirst();
				this.dropped.increment();
			}
			this.queue.addLast(item);
			this.queue.notifyAll();
		}
	}

	private void uploadLoop() {
		try {
			while (!Thread.currentThread().isInterrupted()) {
				T item;
				synchronized (this.queue) {
					while (this.queue.isEmpty()) {
						this.queue.wait();
					}
					item = this.queue.pollFirst();
				}
				upload(item);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void upload(T item) throws InterruptedException {
		this.lastAttemptFailed = false;
		try {
			this.uploader.upload(item);
		}
		catch (RuntimeException | Error ex) {
			// Errors too (a client class that cannot be linked, a full heap): the item
			// fails, the thread goes on, and the outage warning carries the stack trace.
			attemptFailed(ex.toString(), ex);
		}
		if (this.lastAttemptFailed) {
			this.failed.increment();
			return;
		}
		this.uploaded.increment();
		if (this.outage) {
			this.outage = false;
			logger.log(System.Logger.Level.INFO,
					"spanprofile: uploading profiles to " + this.serverForLogs + " works again after "
							+ this.failedAttemptsInOutage + " failed attempts; " + this.dropped.sum()
							+ " profiles dropped so far because the queue was full");
		}
	}

	/** An upload attempt begins. */
	public void attemptStarted() {
		this.lastAttemptFailed = false;
	}

	/** An upload attempt failed; {@code reason} carries no secrets. */
	public void attemptFailed(String reason) {
		attemptFailed(reason, null);
	}

	private void attemptFailed(String reason, Throwable thrown) {
		this.lastAttemptFailed = true;
		if (!this.outage) {
			this.outage = true;
			this.failedAttemptsInOutage = 0;
			logger.log(System.Logger.Level.WARNING,
					"spanprofile: cannot upload profiles to " + this.serverForLogs + " (" + reason
							+ "); retrying with backoff, keeping at most " + this.capacity
							+ " profiles and dropping the oldest. Logged once until uploads work again.",
					thrown);
		}
		this.failedAttemptsInOutage++;
	}

	public long uploaded() {
		return this.uploaded.sum();
	}

	public long failed() {
		return this.failed.sum();
	}

	public long dropped() {
		return this.dropped.sum();
	}

	public int queued() {
		synchronized (this.queue) {
			return this.queue.size();
		}
	}

	public boolean inOutage() {
		return this.outage;
	}

	/** Stops the upload thread; items still waiting are not sent. */
	public void stop() {
		this.thread.interrupt();
	}

	/**
	 * Sends one item.
	 *
	 * @param <T> what is uploaded
	 */
	@FunctionalInterface
	public interface Uploader<T> {

		/**
		 * Send {@code item}; returns once it was accepted or given up on, having reported
		 * every failed attempt to the queue's {@link UploadQueue#attemptFailed}.
		 */
		void upload(T item) throws InterruptedException;

	}

}
