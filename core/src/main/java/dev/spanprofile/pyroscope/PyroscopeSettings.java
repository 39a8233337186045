package dev.spanprofile.pyroscope;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;

/**
 * Where and how to export span profiles to a Pyroscope server.
 *
 * @param serverAddress base URL of the Pyroscope server, e.g.
 * {@code http://pyroscope:4040}
 * @param applicationName the {@code service_name} of the uploaded profiles; must equal
 * the spans' {@code service.name} for Grafana's "Profiles for this span" link
 * @param tenantId sent as {@code X-Scope-OrgID}, or {@code null}
 * @param username basic-auth user, or {@code null}
 * @param password basic-auth password, or {@code null}
 * @param bearerToken sent as {@code Authorization: Bearer}, or {@code null}; ignored when
 * basic auth is set
 * @param labels static labels added to every uploaded profile
 * @param uploadInterval how often a profile is cut and uploaded
 * @param compressionLevel gzip level of the uploaded JFR and label tables, 0 (none) to 9
 * @param queueCapacity profiles waiting for upload at most; beyond it the oldest is
 * dropped
 * @param maxTries attempts per profile on 429 and 5xx answers and connection failures,
 * with exponential backoff
 * @param exportTimeout connect, read and total timeout of one upload attempt
 * @param rootSpanOnly whether samples are labelled with the local root span (true) or the
 * innermost span
 * @param spanNameLabel whether samples carry a {@code span_name} label
 * @param maxSpanNames distinct {@code span_name} values at most; later new names are
 * reported as {@value SpanNameLimit#OTHER}
 * @param traceIdLabel whether samples carry a {@code trace_id} label
 * @param sampleRate fraction of instances that profile at all, drawn once per engine (a
 * restart does not re-draw), 0 to 1
 */
public record PyroscopeSettings(String serverAddress, String applicationName, String tenantId, String username,
		String password, String bearerToken, Map<String, String> labels, Duration uploadInterval, int compressionLevel,
		int queueCapacity, int maxTries, Duration exportTimeout, boolean rootSpanOnly, boolean spanNameLabel,
		int maxSpanNames, boolean traceIdLabel, double sampleRate) {

	public PyroscopeSettings {
		requireHttpUrl(serverAddress);
		labels = (labels != null) ? Map.copyOf(labels) : Map.of();
		if (uploadInterval == null || uploadInterval.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException("upload-interval must be at least 1s, was " + uploadInterval);
		}
		if (compressionLevel < 0 || compressionLevel > 9) {
			throw new IllegalArgumentException("compression-level must be between 0 and 9, was " + compressionLevel);
		}
		if (queueCapacity < 1) {
			throw new IllegalArgumentException("queue-capacity must be at least 1, was " + queueCapacity);
		}
		if (maxTries < 1) {
			throw new IllegalArgumentException("max-tries must be at least 1, was " + maxTries);
		}
		if (exportTimeout == null || exportTimeout.isNegative() || exportTimeout.isZero()) {
			throw new IllegalArgumentException("export-timeout must be positive, was " + exportTimeout);
		}
		if (maxSpanNames < 1) {
			throw new IllegalArgumentException("max-span-names must be at least 1, was " + maxSpanNames);
		}
		if (!(sampleRate >= 0 && sampleRate <= 1)) {
			throw new IllegalArgumentException("sample-rate must be between 0 and 1, was " + sampleRate);
		}
	}

	private static void requireHttpUrl(String address) {
		if (address == null || address.isBlank()) {
			throw new IllegalArgumentException("server-address must be set, e.g. http://pyroscope:4040");
		}
		try {
			URI uri = new URI(address);
			if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())
					|| uri.getHost() == null) {
				throw new IllegalArgumentException(
						"server-address must be an http or https URL, was " + redactedAddress(address));
			}
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("server-address is not a URL: " + redactedAddress(address));
		}
	}

	/** The server address without credentials embedded in it, fit for logs. */
	public String redactedServerAddress() {
		return redactedAddress(this.serverAddress);
	}

	static String redactedAddress(String address) {
		int scheme = address.indexOf("://");
		int at = address.indexOf('@');
		int slash = address.indexOf('/', scheme + 3);
		if (scheme < 0 || at < 0 || (slash >= 0 && at > slash)) {
			return address;
		}
		return address.substring(0, scheme + 3) + "***@" + address.substring(at + 1);
	}

	/** Secret values this configuration holds, to be blanked out of anything logged. */
	String[] secrets() {
		String userInfo = null;
		try {
			userInfo = new URI(this.serverAddress).getRawUserInfo();
		}
		catch (URISyntaxException ex) {
			// Validated in the constructor.
		}
		return new String[] { this.password, this.bearerToken, userInfo };
	}

	@Override
	public String toString() {
		return "PyroscopeSettings[serverAddress=" + redactedServerAddress() + ", applicationName="
				+ this.applicationName + ", tenantId=" + this.tenantId + ", username=" + this.username + ", password="
				+ ((this.password != null) ? "***" : null) + ", bearerToken="
				+ ((this.bearerToken != null) ? "***" : null) + ", labels=" + this.labels + ", uploadInterval="
				+ this.uploadInterval + ", compressionLevel=" + this.compressionLevel + ", queueCapacity="
				+ this.queueCapacity + ", maxTries=" + this.maxTries + ", exportTimeout=" + this.exportTimeout
				+ ", rootSpanOnly=" + this.rootSpanOnly + ", spanNameLabel=" + this.spanNameLabel + ", maxSpanNames="
				+ this.maxSpanNames + ", traceIdLabel=" + this.traceIdLabel + ", sampleRate=" + this.sampleRate + "]";
	}

}
