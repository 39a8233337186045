package dev.spanprofile.render;

/**
 * Whose code a frame runs, as the flame graph page colours it: the question a reader asks first is "is this my
 * code, a library's, or the JDK's?".
 */
public enum FrameCategory {

	/** Code in the application's own packages. */
	APPLICATION,

	/** Other Java code: Spring, the servlet container, libraries. */
	FRAMEWORK,

	/** The Java runtime: {@code java.*}, {@code javax.*}, {@code jdk.*}, {@code sun.*}, {@code com.sun.*}. */
	JDK,

	/** Native code: JNI, libc, the JVM's own C++ code. */
	NATIVE,

	/** The operating system kernel. */
	KERNEL,

	/** Not code but a span: the children of a trace's merged flame graph. */
	SPAN,

	/** Synthetic nodes: the root, or the sum of frames too small to show. */
	OTHER

}
