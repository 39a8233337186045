package dev.spanprofile.autoconfigure.pyroscope;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Export of span profiles to a Pyroscope server, for Grafana's "Profiles for this span"
 * link from Tempo traces.
 */
@ConfigurationProperties("spanprofile.pyroscope")
public class PyroscopeProperties {

	/**
	 * Whether to upload span profiles to Pyroscope. Needs io.pyroscope:agent on the
	 * classpath; its profiler then replaces spanprofile's own, and the actuator endpoint
	 * keeps working from the same samples.
	 */
	private boolean enabled = false;

	/**
	 * Base URL of the Pyroscope server (or Grafana Cloud Profiles endpoint).
	 */
	private String serverAddress = "http://localhost:4040";

	/**
	 * Name the profiles are stored under (the service_name label). Defaults to
	 * spring.application.name. Must equal the spans' service.name for Grafana to link
	 * traces to profiles.
	 */
	private String applicationName;

	/**
	 * Tenant of a multi-tenant Pyroscope, sent as the X-Scope-OrgID header.
	 */
	private String tenantId;

	/**
	 * User name for basic authentication.
	 */
	private String username;

	/**
	 * Password for basic authentication. Never logged.
	 */
	private String password;

	/**
	 * Bearer token sent as the Authorization header when no basic authentication is
	 * configured. Never logged.
	 */
	private String bearerToken;

	/**
	 * Static labels added to every uploaded profile, e.g. region or environment.
	 */
	private Map<String, String> labels = new LinkedHashMap<>();

	/**
	 * How often a profile is cut and uploaded. Spans' profiles reach Pyroscope, and the
	 * local endpoint, within about this long after they end.
	 */
	private Duration uploadInterval = Duration.ofSeconds(10);

	/**
	 * Gzip level of uploads, 0 (no compression) to 9.
	 */
	private int compressionLevel = 1;

	/**
	 * Profiles kept waiting while the server is slow or unreachable. Beyond it the oldest
	 * is dropped.
	 */
	private int queueCapacity = 8;

	/**
	 * Attempts per profile on connection failures and 429 or 5xx answers, with
	 * exponential backoff from 1s to 30s.
	 */
	private int maxTries = 8;

	/**
	 * Timeout of one upload attempt.
	 */
	private Duration exportTimeout = Duration.ofSeconds(10);

	/**
	 * Whether samples are labelled with the local root span (the request's entry point in
	 * this process), as Grafana's own integration does, or with the innermost span active
	 * when they were taken. Only labelled spans get the pyroscope.profile.id attribute
	 * and so a profile link in Grafana.
	 */
	private boolean rootSpanOnly = true;

	/**
	 * Whether samples carry a span_name label (the span's final name, e.g. "http get
	 * /orders/{id}").
	 */
	private boolean spanName = true;

	/**
	 * Distinct span_name values at most. Each becomes a series in Pyroscope; later new
	 * names are reported as "other".
	 */
	private int maxSpanNames = 100;

	/**
	 * Whether samples carry a trace_id label.
	 */
	private boolean traceId = true;

	/**
	 * Fraction of instances that profile at all, drawn once when the application starts
	 * (0 to 1); a runtime switch off and on does not draw again. Independent of trace
	 * sampling; for fleets where profiling a few instances is enough. Unselected
	 * instances run no profiler and label no span.
	 */
	private double sampleRate = 1.0;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getServerAddress() {
		return this.serverAddress;
	}

	public void setServerAddress(String serverAddress) {
		this.serverAddress = serverAddress;
	}

	public String getApplicationName() {
		return this.applicationName;
	}

	public void setApplicationName(String applicationName) {
		this.applicationName = applicationName;
	}

	public String getTenantId() {
		return this.tenantId;
	}

	public void setTenantId(String tenantId) {
		this.tenantId = tenantId;
	}

	public String getUsername() {
		return this.username;
	}

	public void setUsername(String username) {
		this.username = username;
	}

	public String getPassword() {
		return this.password;
	}

	public void setPassword(String password) {
		this.password = password;
	}

	public String getBearerToken() {
		return this.bearerToken;
	}

	public void setBearerToken(String bearerToken) {
		this.bearerToken = bearerToken;
	}

	public Map<String, String> getLabels() {
		return this.labels;
	}

	public void setLabels(Map<String, String> labels) {
		this.labels = labels;
	}

	public Duration getUploadInterval() {
		return this.uploadInterval;
	}

	public void setUploadInterval(Duration uploadInterval) {
		this.uploadInterval = uploadInterval;
	}

	public int getCompressionLevel() {
		return this.compressionLevel;
	}

	public void setCompressionLevel(int compressionLevel) {
		this.compressionLevel = compressionLevel;
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

	public Duration getExportTimeout() {
		return this.exportTimeout;
	}

	public void setExportTimeout(Duration exportTimeout) {
		this.exportTimeout = exportTimeout;
	}

	public boolean isRootSpanOnly() {
		return this.rootSpanOnly;
	}

	public void setRootSpanOnly(boolean rootSpanOnly) {
		this.rootSpanOnly = rootSpanOnly;
	}

	public boolean isSpanName() {
		return this.spanName;
	}

	public void setSpanName(boolean spanName) {
		this.spanName = spanName;
	}

	public int getMaxSpanNames() {
		return this.maxSpanNames;
	}

	public void setMaxSpanNames(int maxSpanNames) {
		this.maxSpanNames = maxSpanNames;
	}

	public boolean isTraceId() {
		return this.traceId;
	}

	public void setTraceId(boolean traceId) {
		this.traceId = traceId;
	}

	public double getSampleRate() {
		return this.sampleRate;
	}

	public void setSampleRate(double sampleRate) {
		this.sampleRate = sampleRate;
	}

}
