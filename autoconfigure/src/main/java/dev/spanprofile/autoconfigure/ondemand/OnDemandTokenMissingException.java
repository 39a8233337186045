package dev.spanprofile.autoconfigure.ondemand;

/**
 * On-demand profiling is on with nothing to tell callers apart: no token, and loopback
 * callers not allowed either. {@link OnDemandTokenMissingFailureAnalyzer} says what to
 * set.
 */
public class OnDemandTokenMissingException extends IllegalStateException {

	private final String header;

	OnDemandTokenMissingException(String header) {
		super("spanprofile.on-demand.enabled is true but spanprofile.on-demand.token is empty "
				+ "and spanprofile.on-demand.allow-loopback is false");
		this.header = header;
	}

	/** The header callers would send. */
	public String header() {
		return this.header;
	}

}
