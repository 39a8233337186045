package dev.spanprofile.agent.extension;

import java.util.logging.Level;
import java.util.logging.Logger;

import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizerProvider;

/**
 * Entry point of the extension, found by the OpenTelemetry Java agent through
 * {@code ServiceLoader} while it configures its SDK. That is before the agent installs
 * its instrumentation and before anything uses its context storage, so a storage wrapper
 * added here is applied (one added later, from an {@code AgentListener}, may be dropped).
 * The bridge classes go onto the bootstrap class path first, and nothing that refers to
 * them is loaded before.
 * <p>
 * Never fails the agent: a problem is logged in one line and the application runs
 * unprofiled.
 */
public final class SpanProfileAgentExtension implements AutoConfigurationCustomizerProvider {

	private static final Logger logger = Logger.getLogger(SpanProfileAgentExtension.class.getName());

	@Override
	public void customize(AutoConfigurationCustomizer autoConfiguration) {
		try {
			String failure = BootstrapInjection.inject();
			if (failure == null) {
				failure = AgentHooks.install(autoConfiguration);
			}
			if (failure != null) {
				logger.warning("spanprofile: the agent's spans will not be profiled: " + failure);
			}
		}
		catch (RuntimeException | LinkageError ex) {
			logger.log(Level.WARNING, "spanprofile: the agent's spans will not be profiled: " + ex, ex);
		}
	}

}
