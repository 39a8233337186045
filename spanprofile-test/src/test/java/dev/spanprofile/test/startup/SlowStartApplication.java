package dev.spanprofile.test.startup;

import java.lang.management.ManagementFactory;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * An application whose start has known steps: one bean sleeps 300 ms, one burns 300 ms of
 * CPU in a recognisable method, one does nothing.
 */
@SpringBootApplication
public class SlowStartApplication {

	static volatile long sink;

	@Bean
	Object sleepyBean() throws InterruptedException {
		Thread.sleep(300);
		return new Object();
	}

	@Bean
	Object burningBean() {
		recognisablyHotStartup(300);
		return new Object();
	}

	@Bean
	Object idleBean() {
		return new Object();
	}

	static void recognisablyHotStartup(long cpuMillis) {
		long until = cpuNanos() + cpuMillis * 1_000_000;
		while (cpuNanos() < until) {
			for (int i = 0; i < 100_000; i++) {
				sink += (long) i * i ^ sink;
			}
		}
	}

	private static long cpuNanos() {
		return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
	}

}
