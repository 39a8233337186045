package dev.spanprofile.pyroscope;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

import io.pyroscope.javaagent.Snapshot;
import io.pyroscope.javaagent.api.Exporter;

/**
 * Uploads profiles one at a time on its own thread, so that the profiler's scheduler never waits for the network.
 * At most {@code capacity} profiles wait; when the server is away longer than that, the oldest are dropped (and
 * counted), so an outage costs bounded memory. An outage is logged once when the first attempt fails and once when
 * uploads work again, however many attempts fail in between.
 */
final class UploadQueue implements Exporter {

	private static final System.Logger logger = System.getLogger(UploadQueue.class.getName());

	private final Exporter uploader;

	private final int capacity;

	private final String serverForLogs;

	private final ArrayDeque<Snapshot> queue;

	private final Thread thread;

	private final LongAdder uploaded = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private final LongAdder dropped = new LongAdder();

	private volatile boolean outage;

	private volatile boolean lastAttemptFailed;

	private long failedAttemptsInOutage;

	UploadQueue(Exporter uploader, int capacity, String serverForLogs) {
		this.uploader = uploader;
		this.capacity = capacity;
		this.serverForLogs = serverForLogs;
		this.queue = new ArrayDeque<>(capacity);
		this.thread = new Thread(this::uploadLoop, "spanprofile-pyroscope-upload");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	@Override
	public void export(Snapshot snapshot) {
		synchronized (this.queue) {
			if (this.queue.size() >= this.capacity) {
				this.queue.pollFirst();
				this.dropped.increment();
			}
			this.queue.addLast(snapshot);
			this.queue.notifyAll();
		}
	}

	private void uploadLoop() {
		try {
			while (!Thread.currentThread().isInterrupted()) {
				Snapshot snapshot;
				synchronized (this.queue) {
					while (this.queue.isEmpty()) {
						this.queue.wait();
					}
					snapshot = this.queue.pollFirst();
				}
				upload(snapshot);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void upload(Snapshot snapshot) {
		this.lastAttemptFailed = false;
		try {
			// Retries with backoff itself, and reports every attempt through the agent's logger (see below).
			this.uploader.export(snapshot);
		}
		catch (RuntimeException ex) {
			attemptFailed(ex.toString());
		}
		if (this.lastAttemptFailed) {
			this.failed.increment();
			return;
		}
		this.uploaded.increment();
		if (this.outage) {
			this.outage = false;
			logger.log(System.Logger.Level.INFO, "spanprofile: uploading profiles to " + this.serverForLogs
					+ " works again after " + this.failedAttemptsInOutage + " failed attempts; " + this.dropped.sum()
					+ " profiles dropped so far because the queue was full");
		}
	}

	/** An upload attempt begins. */
	void attemptStarted() {
		this.lastAttemptFailed = false;
	}

	/** An upload attempt failed; {@code reason} carries no secrets. */
	void attemptFailed(String reason) {
		this.lastAttemptFailed = true;
		if (!this.outage) {
			this.outage = true;
			this.failedAttemptsInOutage = 0;
			logger.log(System.Logger.Level.WARNING, "spanprofile: cannot upload profiles to " + this.serverForLogs
					+ " (" + reason + "); retrying with backoff, keeping at most " + this.capacity
					+ " profiles and dropping the oldest. Logged once until uploads work again.");
		}
		this.failedAttemptsInOutage++;
	}

	long uploaded() {
		return this.uploaded.sum();
	}

	long failed() {
		return this.failed.sum();
	}

	long dropped() {
		return this.dropped.sum();
	}

	int queued() {
		synchronized (this.queue) {
			return this.queue.size();
		}
	}

	boolean inOutage() {
		return this.outage;
	}

	@Override
	public void stop() {
		this.thread.interrupt();
		this.uploader.stop();
	}

}
