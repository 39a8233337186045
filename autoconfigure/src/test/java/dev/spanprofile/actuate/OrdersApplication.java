package dev.spanprofile.actuate;

import java.lang.management.ManagementFactory;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real Spring MVC application with one endpoint whose requests are as slow, as busy or
 * as failed as asked: the CPU time goes to a method with a recognisable name, the waiting
 * to another.
 */
@SpringBootApplication
public class OrdersApplication {

	@RestController
	static class OrdersController {

		static volatile long sink;

		@GetMapping("/orders")
		String order(@RequestParam(defaultValue = "0") long cpuMillis,
				@RequestParam(defaultValue = "0") long sleepMillis, @RequestParam(defaultValue = "false") boolean fail)
				throws InterruptedException {
			if (cpuMillis > 0) {
				recognisablySlowPricing(cpuMillis);
			}
			if (sleepMillis > 0) {
				Thread.sleep(sleepMillis);
			}
			if (fail) {
				// Unhandled, as a failure nobody anticipated: the tracing filter marks
				// the request's span as an error.
				throw new IllegalStateException("payment provider unavailable");
			}
			return "ordered";
		}

		static void recognisablySlowPricing(long cpuMillis) {
			long until = cpuNanos() + cpuMillis * 1_000_000;
			long x = 7;
			while (cpuNanos() < until) {
				for (int i = 0; i < 100_000; i++) {
					x = x * 6364136223846793005L + 1442695040888963407L;
					x ^= (x >>> 29);
				}
			}
			sink += x;
		}

		private static long cpuNanos() {
			long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
			return (cpu >= 0) ? cpu : System.nanoTime();
		}

	}

}
