package dev.spanprofile.agent.extension;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Puts the bridge classes onto the bootstrap class path, the one place that both the
 * agent's extension class loader and the application's class loaders consult first. The
 * agent holds the JVM's {@link Instrumentation}; the classes are copied from this jar
 * into a jar of their own, since appending this whole jar would also expose the
 * extension's other classes unrelocated.
 */
final class BootstrapInjection {

	static final String BRIDGE = "dev.spanprofile.agent.bridge.AgentBridge";

	/**
	 * Every class of the bridge package (BootstrapInjectionTests compares it with the
	 * compiled package).
	 */
	static final List<String> BRIDGE_CLASS_FILES = List.of("dev/spanprofile/agent/bridge/AgentBridge.class",
			"dev/spanprofile/agent/bridge/AgentSpanEvents.class");

	private static final String INSTRUMENTATION_HOLDER = "io.opentelemetry.javaagent.bootstrap.InstrumentationHolder";

	private BootstrapInjection() {
	}

	/**
	 * Returns null when the bridge is on the bootstrap class path, else why it is not.
	 */
	static String inject() {
		if (isOnBootstrapClassPath()) {
			// Another copy of this extension put it there already.
			return null;
		}
		Instrumentation instrumentation = agentInstrumentation();
		if (instrumentation == null) {
			return "the agent does not expose the JVM's Instrumentation (" + INSTRUMENTATION_HOLDER + ")";
		}
		try {
			Path jar = writeBridgeJar(BootstrapInjection.class.getClassLoader());
			instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
			// The open JarFile keeps the content readable; the name goes when the JVM
			// exits.
			jar.toFile().deleteOnExit();
		}
		catch (IOException ex) {
			return "the bridge classes could not be written to a temporary jar: " + ex;
		}
		return isOnBootstrapClassPath() ? null : "the bootstrap class path did not take the bridge classes";
	}

	/** A jar holding the bridge classes as {@code source} has them. */
	static Path writeBridgeJar(ClassLoader source) throws IOException {
		Path jar = Files.createTempFile("spanprofile-agent-bridge-", ".jar");
		try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
			for (String name : BRIDGE_CLASS_FILES) {
				try (InputStream in = source.getResourceAsStream(name)) {
					if (in == null) {
						throw new IOException(name + " is missing from the extension jar");
					}
					out.putNextEntry(new JarEntry(name));
					in.transferTo(out);
					out.closeEntry();
				}
			}
		}
		catch (IOException ex) {
			Files.deleteIfExists(jar);
			throw ex;
		}
		return jar;
	}

	static boolean isOnBootstrapClassPath() {
		try {
			Class.forName(BRIDGE, false, null);
			return true;
		}
		catch (ClassNotFoundException ex) {
			return false;
		}
	}

	private static Instrumentation agentInstrumentation() {
		try {
			Object instrumentation = Class.forName(INSTRUMENTATION_HOLDER, true, null)
				.getMethod("getInstrumentation")
				.invoke(null);
			return (instrumentation instanceof Instrumentation found) ? found : null;
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

}
