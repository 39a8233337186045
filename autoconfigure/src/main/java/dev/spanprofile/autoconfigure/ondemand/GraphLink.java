package dev.spanprofile.autoconfigure.ondemand;

import java.util.function.IntSupplier;

import org.springframework.core.env.Environment;

/**
 * Where a forced request's flame graph is, as its response's {@code Link} names it: the
 * endpoint's path as the actuator maps it ({@code management.endpoints.web.base-path},
 * its path mapping), under the request's context path and the dispatcher servlet's path
 * when the actuator shares the application's server; on the management server (its port,
 * its {@code management.server.base-path}, its scheme) when
 * {@code management.server.port} gives it one of its own.
 */
final class GraphLink {

	/** {@code /actuator/spanprofile}. */
	private final String endpointPath;

	/** Under the application's server: the dispatcher servlet's path, {@code ""}. */
	private final String servletPath;

	/** Whether the actuator has a server of its own. */
	private final boolean separateServer;

	/** On a server of its own: its base path and scheme. */
	private final String managementBasePath;

	private final String managementScheme;

	/** The management server's port once it is up. */
	private final IntSupplier managementPort;

	private GraphLink(String endpointPath, String servletPath, boolean separateServer, String managementBasePath,
			String managementScheme, IntSupplier managementPort) {
		this.endpointPath = endpointPath;
		this.servletPath = servletPath;
		this.separateServer = separateServer;
		this.managementBasePath = managementBasePath;
		this.managementScheme = managementScheme;
		this.managementPort = managementPort;
	}

	static GraphLink of(Environment environment) {
		String endpoint = prefix(environment.getProperty("management.endpoints.web.base-path", "/actuator"))
				+ prefix(environment.getProperty("management.endpoints.web.path-mapping.spanprofile", "spanprofile"));
		Integer managementPort = environment.getProperty("management.server.port", Integer.class);
		Integer serverPort = environment.getProperty("server.port", Integer.class);
		// As Spring Boot's ManagementPortType tells them apart: 0 is another, random
		// port.
		boolean separate = managementPort != null && managementPort >= 0
				&& !(serverPort == null && managementPort == 8080)
				&& !(managementPort != 0 && managementPort.equals(serverPort));
		boolean ssl = environment.getProperty("management.server.ssl.enabled", Boolean.class, true)
				&& (environment.containsProperty("management.server.ssl.bundle")
						|| environment.containsProperty("management.server.ssl.key-store")
						|| environment.containsProperty("management.server.ssl.certificate"));
		return new GraphLink(endpoint, prefix(environment.getProperty("spring.mvc.servlet.path", "")), separate,
				prefix(environment.getProperty("management.server.base-path", "")), ssl ? "https" : "http",
				// The port it listens on, set by Spring Boot once it is up.
				() -> environment.getProperty("local.management.port", Integer.class,
						(managementPort != null) ? managementPort : 0));
	}

	/**
	 * The flame graph's page for a request.
	 * @param contextPath the request's context path ({@code server.servlet.context-path}
	 * or WebFlux's base path), {@code ""} for none
	 * @param host the host the request was sent to, for a management port's absolute URL
	 */
	String of(String spanId, String contextPath, String host) {
		String path = this.endpointPath + "/" + spanId + "?format=html";
		if (!this.separateServer) {
			return contextPath + this.servletPath + path;
		}
		String hostName = (host.indexOf(':') >= 0 && !host.startsWith("[")) ? "[" + host + "]" : host;
		return this.managementScheme + "://" + hostName + ":" + this.managementPort.getAsInt() + this.managementBasePath
				+ path;
	}

	/**
	 * {@code "/x"} for {@code "x"}, {@code "/x/"} and {@code "/x/*"}; {@code ""} for "/".
	 */
	private static String prefix(String path) {
		String prefix = path.trim();
		if (prefix.endsWith("/*")) {
			prefix = prefix.substring(0, prefix.length() - 2);
		}
		while (prefix.endsWith("/")) {
			prefix = prefix.substring(0, prefix.length() - 1);
		}
		return (prefix.isEmpty() || prefix.startsWith("/")) ? prefix : "/" + prefix;
	}

}
