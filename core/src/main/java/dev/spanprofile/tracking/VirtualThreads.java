package dev.spanprofile.tracking;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * {@code Thread.isVirtual()} for code compiled for Java 17: false on JDKs without virtual
 * threads.
 */
final class VirtualThreads {

	private static final MethodHandle IS_VIRTUAL = findIsVirtual();

	private VirtualThreads() {
	}

	static boolean isVirtual(Thread thread) {
		if (IS_VIRTUAL == null) {
			return false;
		}
		try {
			return (boolean) IS_VIRTUAL.invokeExact(thread);
		}
		catch (Throwable ex) {
			return false;
		}
	}

	private static MethodHandle findIsVirtual() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (ReflectiveOperationException ex) {
			return null;
		}
	}

}
