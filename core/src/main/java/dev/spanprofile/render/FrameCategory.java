package dev.spanprofile.render;

/**
 * Whose code a frame runs, as the flame graph page colours it: the question a reader asks
 * first is "is this my code, a library's, or the JDK's?". The page is told each
 * category's {@link #id()}, {@link #label()} and colour (the page data's
 * {@code frameCategories}), so that a new category needs no change to the page's script.
 */
public enum FrameCategory {

	/** Code in the application's own packages. */
	APPLICATION("application", "application"),

	/** Other Java code: Spring, the servlet container, libraries. */
	FRAMEWORK("framework", "framework or library"),

	/**
	 * The Java runtime: {@code java.*}, {@code javax.*}, {@code jdk.*}, {@code sun.*},
	 * {@code com.sun.*}.
	 */
	JDK("jdk", "JDK"),

	/** Native code: JNI, libc, the JVM's own C++ code. */
	NATIVE("native", "native"),

	/** The operating system kernel. */
	KERNEL("kernel", "kernel"),

	/**
	 * Not code but what a thread waited on: the leaf of a wait sample, e.g.
	 * {@code [socket read 10.0.0.5:5432]}.
	 */
	WAIT("wait", "waiting"),

	/** Not code but a span: the children of a trace's merged flame graph. */
	SPAN("span", "span"),

	/** Synthetic nodes: the root, or the sum of frames too small to show. */
	OTHER("other", "synthetic");

	private final String id;

	private final String label;

	FrameCategory(String id, String label) {
		this.id = id;
		this.label = label;
	}

	/** A short name for the page's script and style sheet, e.g. {@code wait}. */
	public String id() {
		return this.id;
	}

	/** How the page names the category to a reader. */
	public String label() {
		return this.label;
	}

}
