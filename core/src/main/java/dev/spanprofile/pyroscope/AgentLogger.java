package dev.spanprofile.pyroscope;

import java.util.IllegalFormatException;

import dev.spanprofile.upload.UploadQueue;
import io.pyroscope.javaagent.api.Logger;

/**
 * Receives the Pyroscope agent's log lines: upload attempts and failures go to the
 * {@link UploadQueue} (which logs an outage once), other problems become warnings, the
 * rest debug output. Secrets are blanked out of every line, since the agent prints its
 * configuration and upload URLs.
 */
final class AgentLogger implements Logger {

	private static final System.Logger logger = System.getLogger("dev.spanprofile.pyroscope.PyroscopeAgent");

	private final String[] secrets;

	private volatile UploadQueue<?> uploads;

	private volatile String lastError;

	AgentLogger(String[] secrets) {
		this.secrets = secrets;
	}

	void reportUploadsTo(UploadQueue<?> uploads) {
		this.uploads = uploads;
	}

	/** The last error the agent reported outside uploads, or {@code null}. */
	String lastError() {
		return this.lastError;
	}

	@Override
	public void log(Level level, String format, Object... args) {
		String message = redact(format(format, args));
		UploadQueue<?> uploads = this.uploads;
		if (uploads != null && message.startsWith("Upload attempt")) {
			uploads.attemptStarted();
		}
		else if (uploads != null && message.startsWith("Error uploading snapshot")) {
			uploads.attemptFailed(message.substring("Error uploading snapshot".length()).replaceFirst("^[: ]+", ""));
		}
		else if (uploads != null && message.startsWith("Gave up uploading")) {
			// The failed attempts were reported already; the outage is logged once.
			uploads.attemptFailed(message);
		}
		else if (level == Level.ERROR || level == Level.WARN) {
			this.lastError = message;
			logger.log(System.Logger.Level.WARNING, "spanprofile: Pyroscope agent: " + message);
		}
		else {
			logger.log(System.Logger.Level.DEBUG, message);
		}
	}

	private static String format(String format, Object[] args) {
		if (args == null || args.length == 0) {
			return String.valueOf(format);
		}
		try {
			return String.format(format, args);
		}
		catch (IllegalFormatException ex) {
			return format;
		}
	}

	String redact(String message) {
		String redacted = message;
		for (String secret : this.secrets) {
			if (secret != null && !secret.isEmpty()) {
				redacted = redacted.replace(secret, "***");
			}
		}
		return redacted;
	}

}
