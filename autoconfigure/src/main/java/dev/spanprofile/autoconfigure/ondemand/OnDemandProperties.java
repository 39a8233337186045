package dev.spanprofile.autoconfigure.ondemand;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Profiling one request on demand: a request carrying {@link #getHeader() the header}
 * with the right value is traced whatever the sampler says, profiled and kept, and its
 * response says where its flame graph is.
 */
@ConfigurationProperties("spanprofile.on-demand")
public class OnDemandProperties {

	/**
	 * Whether a request may ask for its own profile with the header. Off by default: on,
	 * it needs a token or allow-loopback.
	 */
	private boolean enabled;

	/** The request header that asks for a request's profile; its value is the token. */
	private String header = "X-Spanprofile";

	/**
	 * The secret the header's value must equal (compared in constant time). Required when
	 * enabled, unless allow-loopback is set.
	 */
	private String token;

	/**
	 * Whether a caller on the loopback interface (the same host) may ask with the header
	 * whatever its value.
	 */
	private boolean allowLoopback;

	/**
	 * At most this many requests a minute are forced; the others are answered "not
	 * profiled: rate limit".
	 */
	private int maxPerMinute = 30;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getHeader() {
		return this.header;
	}

	public void setHeader(String header) {
		this.header = header;
	}

	public String getToken() {
		return this.token;
	}

	public void setToken(String token) {
		this.token = token;
	}

	public boolean isAllowLoopback() {
		return this.allowLoopback;
	}

	public void setAllowLoopback(boolean allowLoopback) {
		this.allowLoopback = allowLoopback;
	}

	public int getMaxPerMinute() {
		return this.maxPerMinute;
	}

	public void setMaxPerMinute(int maxPerMinute) {
		this.maxPerMinute = maxPerMinute;
	}

}
