package dev.spanprofile.slowlog;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The lines the slow-request log writes while it is open: its tests read what a user's
 * log would show.
 */
final class LoggedLines extends Handler implements AutoCloseable {

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private final Logger logger = Logger.getLogger(SlowSpanLog.class.getName());

	LoggedLines() {
		this.logger.addHandler(this);
	}

	List<String> lines() {
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
