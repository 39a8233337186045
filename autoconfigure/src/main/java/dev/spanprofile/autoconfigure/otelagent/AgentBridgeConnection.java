package dev.spanprofile.autoconfigure.otelagent;

import dev.spanprofile.agent.bridge.AgentBridge;
import dev.spanprofile.agent.bridge.AgentSpanEvents;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;

/**
 * Connects the application's {@link AgentSpanReceiver} to the bridge for the life of the
 * application context, once it has checked that the extension speaks the same bridge
 * protocol (an extension and a starter of different releases would otherwise fail on the
 * first span with a linkage error). Says in one line what it did.
 */
final class AgentBridgeConnection implements InitializingBean, DisposableBean {

	private static final Log logger = LogFactory.getLog(AgentBridgeConnection.class);

	private final AgentSpanEvents receiver;

	private boolean connected;

	AgentBridgeConnection(AgentSpanEvents receiver) {
		this.receiver = receiver;
	}

	@Override
	public void afterPropertiesSet() {
		String problem = problem();
		if (problem != null) {
			logger.warn("spanprofile: the OpenTelemetry Java agent's spans will not be profiled: " + problem);
			return;
		}
		AgentBridge.connect(this.receiver);
		this.connected = true;
		if (AgentBridge.isContextStorageHooked()) {
			logger.info("spanprofile: profiling the spans of the OpenTelemetry Java agent, reported by "
					+ "spanprofile-otel-agent-extension");
		}
		else {
			logger.warn("spanprofile: the OpenTelemetry Java agent's context storage was initialised before "
					+ "spanprofile-otel-agent-extension could hook into it: spans are listed, but their samples "
					+ "cannot be attributed. Is another extension using the context while the agent starts?");
		}
	}

	private static String problem() {
		try {
			if (!AgentBridge.isOnBootstrapClassPath()) {
				return "the application's class loader loads its own copy of " + AgentBridge.class.getName()
						+ " instead of the one spanprofile-otel-agent-extension put on the bootstrap class path";
			}
			int extension = AgentBridge.protocol();
			if (extension != AgentBridge.PROTOCOL) {
				return "spanprofile-otel-agent-extension speaks bridge protocol " + extension + ", this application's "
						+ "spanprofile " + AgentBridge.PROTOCOL
						+ ": use the extension of the same version as the starter";
			}
			return null;
		}
		catch (LinkageError ex) {
			return "spanprofile-otel-agent-extension and this application's spanprofile are of different versions ("
					+ ex + "): use the extension of the same version as the starter";
		}
	}

	@Override
	public void destroy() {
		if (this.connected) {
			AgentBridge.disconnect(this.receiver);
			this.connected = false;
		}
	}

}
