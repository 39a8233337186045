package dev.spanprofile.slowlog;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The lines the slow-request log writes while it is open (it writes at INFO only): its
 * tests read what a user's log would show.
 */
public final class LoggedLines extends Handler implements AutoCloseable {

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private final Logger logger = Logger.getLogger(SlowSpanLog.class.getName());

	public LoggedLines() {
		this.logger.addHandler(this);
	}

	/** The lines written so far, and those written later as they come. */
	public List<String> lines() {
		return this.lines;
	}

	@Override
	public void publish(LogRecord record) {
		this.lines.add(record.getMessage());
	}

	@Override
	public void flush() {
	}

	@Override
	public void close() {
		this.logger.removeHandler(this);
	}

}
