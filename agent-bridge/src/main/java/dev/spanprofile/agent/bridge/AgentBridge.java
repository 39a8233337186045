package dev.spanprofile.agent.bridge;

/**
 * Where the OpenTelemetry Java agent's extension and the application meet. The extension
 * appends these classes to the bootstrap class path before it uses them; every class
 * loader asks its parents first, so the agent's extension class loader and the
 * application's (a Spring Boot fat jar's included) both resolve this name to that one
 * copy, and an {@link AgentSpanEvents} that the application connects is the very
 * interface the agent calls. Without the extension the application loads its own copy, to
 * which nothing ever reports.
 * <p>
 * One application at a time receives the events: the one that connected last, until it
 * disconnects.
 */
public final class AgentBridge {

	/**
	 * The version of {@link AgentSpanEvents}, raised whenever one of its methods changes.
	 * An application compiled against this class has the value inlined;
	 * {@link #protocol()} answers with the copy actually loaded, so the two differ when
	 * the extension and the application come from different releases.
	 */
	public static final int PROTOCOL = 2;

	private static volatile AgentSpanEvents events;

	private static volatile boolean contextStorageHooked;

	private AgentBridge() {
	}

	/**
	 * The protocol of the copy of this class that the JVM loaded (see {@link #PROTOCOL}).
	 */
	public static int protocol() {
		return PROTOCOL;
	}

	/**
	 * Whether this copy is the one on the bootstrap class path, which the agent's
	 * extension reports to.
	 */
	public static boolean isOnBootstrapClassPath() {
		return AgentBridge.class.getClassLoader() == null;
	}

	/**
	 * Receive the agent's span events from now on, in place of whoever received them
	 * before.
	 */
	public static void connect(AgentSpanEvents receiver) {
		events = receiver;
	}

	/** Stop sending events to {@code receiver}, if it is the one connected. */
	public static void disconnect(AgentSpanEvents receiver) {
		if (events == receiver) {
			events = null;
		}
	}

	/**
	 * Agent side: where to report, or {@code null} while no application listens (one
	 * volatile read).
	 */
	public static AgentSpanEvents events() {
		return events;
	}

	/** Agent side: the extension's wrapper is in the agent's context storage. */
	public static void markContextStorageHooked() {
		contextStorageHooked = true;
	}

	/**
	 * Whether the agent's context storage reports activations: the agent applies its
	 * wrappers when the storage is first used, so a wrapper registered too late is
	 * silently left out.
	 */
	public static boolean isContextStorageHooked() {
		return contextStorageHooked;
	}

}
