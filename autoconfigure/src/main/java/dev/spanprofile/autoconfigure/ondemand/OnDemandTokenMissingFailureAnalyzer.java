package dev.spanprofile.autoconfigure.ondemand;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Says what to set when on-demand profiling is on without a token: refusing to start is
 * safer than letting anyone who knows the header's name profile the application.
 */
public class OnDemandTokenMissingFailureAnalyzer extends AbstractFailureAnalyzer<OnDemandTokenMissingException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, OnDemandTokenMissingException cause) {
		return new FailureAnalysis(
				"On-demand profiling is enabled (spanprofile.on-demand.enabled=true) but nothing tells who may use it: "
						+ "spanprofile.on-demand.token is empty and spanprofile.on-demand.allow-loopback is false. "
						+ "Anyone who knows the " + cause.header() + " header could profile any request.",
				"Set spanprofile.on-demand.token to a secret (e.g. from an environment variable: "
						+ "SPANPROFILE_ONDEMAND_TOKEN), or set spanprofile.on-demand.allow-loopback=true to accept "
						+ "callers on this host only, or set spanprofile.on-demand.enabled=false.",
				cause);
	}

}
