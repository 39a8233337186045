package dev.spanprofile.autoconfigure.startup;

import java.lang.management.ManagementFactory;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real application whose start has two known slow beans: one sleeps 300 ms, one burns
 * 300 ms of CPU, each in a method with a recognisable name; and one endpoint.
 */
@SpringBootApplication
public class SlowStartApplication {

	static final long SLOW_MILLIS = 300;

	static volatile long sink;

	@Bean
	SleepyBean sleepyBean() throws InterruptedException {
		recognisablySleepyStartup(SLOW_MILLIS);
		return new SleepyBean();
	}

	@Bean
	BurningBean burningBean() {
		recognisablyHotStartup(SLOW_MILLIS);
		return new BurningBean();
	}

	static void recognisablySleepyStartup(long millis) throws InterruptedException {
		Thread.sleep(millis);
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

	@RestController
	static class HelloController {

		@GetMapping("/hello")
		String hello() {
			return "hello";
		}

	}

	static final class SleepyBean {

	}

	static final class BurningBean {

	}

}
