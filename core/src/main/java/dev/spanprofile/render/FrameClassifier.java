package dev.spanprofile.render;

import java.util.List;

import dev.spanprofile.profile.FrameKind;

/**
 * Sorts frames into {@link FrameCategory categories} by name. Application code is
 * recognised by its packages when they are known (Spring Boot's auto-configuration
 * packages); otherwise every Java frame that is neither the JDK's nor a well-known
 * library's is taken for application code.
 */
public final class FrameClassifier {

	private static final List<String> JDK_PREFIXES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");

	private static final List<String> LIBRARY_PREFIXES = List.of("org.springframework.", "org.apache.",
			"io.micrometer.", "io.opentelemetry.", "com.fasterxml.", "tools.jackson.", "ch.qos.", "org.slf4j.",
			"org.hibernate.", "io.netty.", "reactor.", "jakarta.", "com.zaxxer.", "org.eclipse.", "io.undertow.",
			"org.jboss.", "kotlin.", "kotlinx.", "scala.", "com.google.", "org.junit.", "org.aspectj.",
			"net.bytebuddy.", "org.postgresql.", "com.mysql.", "org.h2.", "dev.spanprofile.", "one.profiler.",
			"org.thymeleaf.", "io.grpc.", "okhttp3.", "org.yaml.", "com.github.benmanes.");

	/**
	 * How async-profiler names the frames of its own library: the library's file name
	 * (extracted as {@code libasyncProfiler-<n>.so}, bundled by other agents under other
	 * suffixes) before the function, or the bare function where the library is not known.
	 */
	private static final List<String> PROFILER_PREFIXES = List.of("libasyncProfiler", "WallClock::", "CTimer::",
			"ITimer::", "PerfEvents::");

	private final List<String> applicationPrefixes;

	/**
	 * @param applicationPackages the application's packages, e.g. the package of its
	 * {@code @SpringBootApplication} class; empty when not known
	 */
	public FrameClassifier(List<String> applicationPackages) {
		this.applicationPrefixes = applicationPackages.stream()
			.filter((name) -> name != null && !name.isBlank())
			.map((name) -> name.endsWith(".") ? name : name + ".")
			.toList();
	}

	public FrameCategory classify(String name, FrameKind kind) {
		if (kind == FrameKind.KERNEL) {
			return FrameCategory.KERNEL;
		}
		if (kind == FrameKind.NATIVE) {
			return FrameCategory.NATIVE;
		}
		if (kind == FrameKind.WAIT) {
			return FrameCategory.WAIT;
		}
		// The application's own packages first: an application may well live under a
		// library-like prefix.
		if (startsWithAny(name, this.applicationPrefixes)) {
			return FrameCategory.APPLICATION;
		}
		if (startsWithAny(name, JDK_PREFIXES)) {
			return FrameCategory.JDK;
		}
		if (!this.applicationPrefixes.isEmpty() || startsWithAny(name, LIBRARY_PREFIXES)) {
			return FrameCategory.FRAMEWORK;
		}
		return FrameCategory.APPLICATION;
	}

	/**
	 * Whether a frame is the profiler's own code: a signal handler that interrupted the
	 * thread (the wall clock's handler runs on the thread, and a CPU sample taken
	 * meanwhile catches it there) or the stack walk it calls. Time in such a frame is the
	 * profiler's, never the application's.
	 */
	public static boolean isProfilerFrame(String name, FrameKind kind) {
		return kind == FrameKind.NATIVE && startsWithAny(name, PROFILER_PREFIXES);
	}

	private static boolean startsWithAny(String name, List<String> prefixes) {
		for (String prefix : prefixes) {
			if (name.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
