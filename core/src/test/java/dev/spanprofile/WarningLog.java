package dev.spanprofile;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The warnings one class logs while a test runs. Core logs through {@link System.Logger},
 * which goes to java.util.logging when no other backend is present, as in these tests.
 */
final class WarningLog extends Handler implements AutoCloseable {

	private final Logger logger;

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	private WarningLog(Class<?> source) {
		this.logger = Logger.getLogger(source.getName());
		this.logger.addHandler(this);
	}

	static WarningLog of(Class<?> source) {
		return new WarningLog(source);
	}

	List<String> warnings() {
		return List.copyOf(this.warnings);
	}

	@Override
	public void publish(LogRecord record) {
		if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
			this.warnings.add(record.getMessage());
		}
	}

	@Override
	public void flush() {
	}

	@Override
	public void close() {
		this.logger.removeHandler(this);
	}

}
