package dev.spanprofile.autoconfigure.otelagent;

/**
 * Whether the JVM runs the OpenTelemetry Java agent, and with spanprofile's extension or
 * without. The agent puts its bootstrap classes on the bootstrap class path, and the
 * extension puts the bridge there: both are looked up there only, whatever the
 * application's class loader has.
 *
 * @param running whether the OpenTelemetry Java agent is in the JVM
 * @param extensionLoaded whether spanprofile's extension put the bridge on the bootstrap
 * class path
 */
public record OtelJavaAgent(boolean running, boolean extensionLoaded) {

	private static final String AGENT_MARKER = "io.opentelemetry.javaagent.bootstrap.AgentInitializer";

	/**
	 * By name: the check runs where the bridge jar may have been left out of the
	 * application.
	 */
	private static final String BRIDGE = "dev.spanprofile.agent.bridge.AgentBridge";

	/** What this JVM runs. */
	public static OtelJavaAgent detect() {
		return new OtelJavaAgent(onBootstrapClassPath(AGENT_MARKER), onBootstrapClassPath(BRIDGE));
	}

	/**
	 * Whether the agent runs without the extension: its spans are then invisible to
	 * spanprofile.
	 */
	public boolean runsWithoutExtension() {
		return this.running && !this.extensionLoaded;
	}

	/** The one-line fix to print when the agent runs without the extension. */
	public static String missingExtensionAdvice() {
		return "spanprofile: this application runs under the OpenTelemetry Java agent, whose spans spanprofile sees "
				+ "only through its agent extension, so no span will be profiled. Start the JVM with "
				+ "-Dotel.javaagent.extensions=/path/to/spanprofile-otel-agent-extension.jar beside "
				+ "-javaagent (dev.spanprofile:spanprofile-otel-agent-extension, the same version as the starter).";
	}

	private static boolean onBootstrapClassPath(String className) {
		try {
			Class.forName(className, false, null);
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
