package dev.spanprofile.autoconfigure.ondemand;

/**
 * On-demand profiling allows loopback callers where the caller's address comes from
 * forwarded headers, which any client can send.
 * {@link OnDemandLoopbackForwardedFailureAnalyzer} says what to set.
 */
public class OnDemandLoopbackForwardedException extends IllegalStateException {

	private final String forwarding;

	OnDemandLoopbackForwardedException(String forwarding) {
		super("spanprofile.on-demand.allow-loopback is true but the caller's address comes from forwarded headers: "
				+ forwarding);
		this.forwarding = forwarding;
	}

	/** Why forwarded headers are in effect. */
	public String forwarding() {
		return this.forwarding;
	}

}
