package dev.spanprofile.agent.extension;

import dev.spanprofile.agent.bridge.AgentBridge;
import io.opentelemetry.context.ContextStorage;
import io.opentelemetry.sdk.autoconfigure.spi.AutoConfigurationCustomizer;

/**
 * Registers the two hooks on the agent's side: a wrapper of the agent's context storage,
 * which sees every context change the agent's instrumentation makes (a request's server
 * span, a task handed to a pool, a Reactor hop), and a span processor on the agent's
 * tracer provider for starts and ends. The first class to refer to the bridge, loaded
 * only once the bridge is on the bootstrap class path.
 */
final class AgentHooks {

	private AgentHooks() {
	}

	/** Returns null when the hooks are registered, else why they are not. */
	static String install(AutoConfigurationCustomizer autoConfiguration) {
		if (!AgentBridge.isOnBootstrapClassPath()) {
			return "the extension's class loader loaded its own copy of " + AgentBridge.class.getName()
					+ ", which the application cannot see";
		}
		ContextStorage.addWrapper(ActivationReportingStorage::wrap);
		autoConfiguration
			.addTracerProviderCustomizer((builder, config) -> builder.addSpanProcessor(new SpanEventsProcessor()));
		return null;
	}

}
