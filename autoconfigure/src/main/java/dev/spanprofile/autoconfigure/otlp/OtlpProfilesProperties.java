package dev.spanprofile.autoconfigure.otlp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Export of span-linked profiles over OTLP/HTTP (the OpenTelemetry profiles signal,
 * alpha, messages of opentelemetry-proto 1.11.0), to an OpenTelemetry Collector or a
 * backend that ingests OTLP profiles.
 */
@ConfigurationProperties("spanprofile.otlp")
public class OtlpProfilesProperties {

	/**
	 * Whether to export span profiles over OTLP. Reads spanprofile's own samples: works
	 * with any engine, and the actuator endpoint is unchanged.
	 */
	private boolean enabled = false;

	/**
	 * URL profiles are POSTed to, OTLP/HTTP with protobuf bodies.
	 */
	private String endpoint = "http://localhost:4318/v1development/profiles";

	/**
	 * Headers sent with every request, e.g. Authorization. Never logged.
	 */
	private Map<String, String> headers = new LinkedHashMap<>();

	/**
	 * Compression of request bodies: gzip or none.
	 */
	private Compression compression = Compression.GZIP;

	/**
	 * How often the samples of the spans completed since the last export are sent, as one
	 * request.
	 */
	private Duration exportInterval = Duration.ofSeconds(10);

	/**
	 * Timeout of one request attempt, connecting included.
	 */
	private Duration timeout = Duration.ofSeconds(10);

	/**
	 * Requests kept waiting while the receiver is slow or unreachable. Beyond it the
	 * oldest is dropped.
	 */
	private int queueCapacity = 8;

	/**
	 * Attempts per request on connection failures and 429, 502, 503 or 504 answers, with
	 * exponential backoff from 0.5s to 30s.
	 */
	private int maxTries = 5;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getEndpoint() {
		return this.endpoint;
	}

	public void setEndpoint(String endpoint) {
		this.endpoint = endpoint;
	}

	public Map<String, String> getHeaders() {
		return this.headers;
	}

	public void setHeaders(Map<String, String> headers) {
		this.headers = headers;
	}

	public Compression getCompression() {
		return this.compression;
	}

	public void setCompression(Compression compression) {
		this.compression = compression;
	}

	public Duration getExportInterval() {
		return this.exportInterval;
	}

	public void setExportInterval(Duration exportInterval) {
		this.exportInterval = exportInterval;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public int getQueueCapacity() {
		return this.queueCapacity;
	}

	public void setQueueCapacity(int queueCapacity) {
		this.queueCapacity = queueCapacity;
	}

	public int getMaxTries() {
		return this.maxTries;
	}

	public void setMaxTries(int maxTries) {
		this.maxTries = maxTries;
	}

	/** How request bodies are compressed. */
	public enum Compression {

		/** Gzip, sent with Content-Encoding: gzip. */
		GZIP,

		/** Uncompressed. */
		NONE

	}

}
