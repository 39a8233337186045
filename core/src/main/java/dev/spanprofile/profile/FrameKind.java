package dev.spanprofile.profile;

/** What kind of code a frame runs; the renderers colour by it. */
public enum FrameKind {

	/** A Java method, whether interpreted, JIT-compiled or inlined. */
	JAVA,

	/** Native code: JNI, libc, the JVM's own C++ code. */
	NATIVE,

	/** The operating system kernel. */
	KERNEL,

	/**
	 * Not code but what a thread waited on, the leaf of a {@link SampleKind#WAIT} sample:
	 * its name is made and read by {@link WaitKind}.
	 */
	WAIT

}
