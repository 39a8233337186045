import java.lang.management.ManagementFactory;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * Whether loading async-profiler's library turns the JVM's DebugNonSafepoints on. Run as a single-file program with
 * async-profiler's jar on the class path (the option is diagnostic: unlock it to see it):
 * <pre>
 * java -XX:+UnlockDiagnosticVMOptions -cp async-profiler-4.6.jar DebugNonSafepointsCheck.java
 * java -XX:+UnlockDiagnosticVMOptions -XX:-DebugNonSafepoints -cp async-profiler-4.6.jar DebugNonSafepointsCheck.java
 * </pre>
 */
public class DebugNonSafepointsCheck {

	public static void main(String[] args) {
		HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
		System.out.println("before the library is loaded: " + vm.getVMOption("DebugNonSafepoints"));
		one.profiler.AsyncProfiler.getInstance();
		System.out.println("after: " + vm.getVMOption("DebugNonSafepoints"));
	}

}
