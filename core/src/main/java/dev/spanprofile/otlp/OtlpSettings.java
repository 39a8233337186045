package dev.spanprofile.otlp;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * How span-linked profiles are exported over OTLP/HTTP.
 *
 * @param endpoint where requests are POSTed, e.g.
 * {@code http://localhost:4318/v1development/profiles}
 * @param headers sent with every request (e.g. authorization); never logged
 * @param gzip whether request bodies are gzip-compressed
 * @param exportInterval how often the samples joined since the last export are sent
 * @param timeout for one request, connection included
 * @param queueCapacity most requests waiting while the receiver is away; the oldest are
 * dropped beyond
 * @param maxTries attempts per request before it is given up
 * @param linkToRoot link samples to their local root span instead of the innermost span
 * they were taken in
 */
public record OtlpSettings(URI endpoint, Map<String, String> headers, boolean gzip, Duration exportInterval,
		Duration timeout, int queueCapacity, int maxTries, boolean linkToRoot) {

	public OtlpSettings {
		headers = Map.copyOf(headers);
		if (exportInterval.isNegative() || exportInterval.isZero()) {
			throw new IllegalArgumentException("export interval must be positive, was " + exportInterval);
		}
		if (queueCapacity < 1 || maxTries < 1) {
			throw new IllegalArgumentException("queue capacity and max tries must be at least 1");
		}
	}

	/** The endpoint without user info or query, which may hold secrets. */
	String endpointForLogs() {
		return this.endpoint.getScheme() + "://" + this.endpoint.getHost()
				+ ((this.endpoint.getPort() != -1) ? ":" + this.endpoint.getPort() : "") + this.endpoint.getPath();
	}

}
