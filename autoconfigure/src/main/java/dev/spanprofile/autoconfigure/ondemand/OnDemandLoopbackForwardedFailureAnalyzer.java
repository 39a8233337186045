package dev.spanprofile.autoconfigure.ondemand;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Says what to set when loopback callers are allowed behind forwarded headers: there any
 * client can claim to be {@code 127.0.0.1}, so the application does not start rather than
 * let everyone profile it.
 */
public class OnDemandLoopbackForwardedFailureAnalyzer
		extends AbstractFailureAnalyzer<OnDemandLoopbackForwardedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, OnDemandLoopbackForwardedException cause) {
		return new FailureAnalysis("spanprofile.on-demand.allow-loopback=true accepts any caller on a loopback "
				+ "address, but here the caller's address is taken from the X-Forwarded-For and Forwarded headers ("
				+ cause.forwarding() + "), which any client can send: a request claiming 127.0.0.1 would be "
				+ "profiled.",
				"Set spanprofile.on-demand.token to a secret and remove spanprofile.on-demand.allow-loopback, or, if "
						+ "no proxy forwards requests to this application, set server.forward-headers-strategy=none.",
				cause);
	}

}
