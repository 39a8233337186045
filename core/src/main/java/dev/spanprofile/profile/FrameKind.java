package dev.spanprofile.profile;

/** What kind of code a frame runs; the renderers colour by it. */
public enum FrameKind {

	/** A Java method, whether interpreted, JIT-compiled or inlined. */
	JAVA,

	/** Native code: JNI, libc, the JVM's own C++ code. */
	NATIVE,

	/** The operating system kernel. */
	KERNEL

}
