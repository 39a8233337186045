package dev.spanprofile.actuate.handoff;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.PropertySource;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real Spring MVC application that hands its requests' work to an {@code @Async} method
 * and turns context propagation off in a {@code @PropertySource} file of its own
 * ({@code spring.task.execution.propagate-context=false}), which must win over the
 * starter's default.
 */
@SpringBootApplication
@EnableAsync
@PropertySource("classpath:context-propagation-off.properties")
public class AsyncWithoutContextApplication {

	static volatile long sink;

	@RestController
	static class HandoffController {

		private final Burner burner;

		HandoffController(Burner burner) {
			this.burner = burner;
		}

		/** Waits for the {@code @Async} method; answers with the thread that burnt. */
		@GetMapping("/handoff")
		String handoff(@RequestParam long cpuMillis) {
			return this.burner.burnElsewhere(cpuMillis).join();
		}

		/** Burns on the request's own thread. */
		@GetMapping("/inline")
		String inline(@RequestParam long cpuMillis) {
			return Burner.burn(cpuMillis);
		}

	}

	@Service
	static class Burner {

		@Async
		public CompletableFuture<String> burnElsewhere(long cpuMillis) {
			return CompletableFuture.completedFuture(burn(cpuMillis));
		}

		static String burn(long cpuMillis) {
			long until = cpuNanos() + cpuMillis * 1_000_000;
			while (cpuNanos() < until) {
				sink += handedOffHotMethod(100_000);
			}
			return Thread.currentThread().getName();
		}

		static long handedOffHotMethod(int rounds) {
			long x = 17;
			for (int i = 0; i < rounds; i++) {
				x = x * 3202034522624059733L + 4354685564936845319L;
				x ^= (x >>> 29);
			}
			return x;
		}

		private static long cpuNanos() {
			return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
		}

	}

}
