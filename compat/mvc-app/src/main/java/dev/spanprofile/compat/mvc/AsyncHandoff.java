package dev.spanprofile.compat.mvc;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A request that hands its work to an {@code @Async} method on Spring Boot's task
 * executor and waits for it, with no setting of its own: the starter's default context
 * propagation (Boot's tracing) or the OpenTelemetry Java agent ({@code compat/otel-agent})
 * carries the request's context to the pool thread, where the work must still count as
 * the request's.
 */
@Configuration(proxyBeanMethods = false)
@EnableAsync
class AsyncHandoff {

	static volatile long sink;

	@RestController
	static class HandoffController {

		private final AsyncBurner asyncBurner;

		HandoffController(AsyncBurner asyncBurner) {
			this.asyncBurner = asyncBurner;
		}

		/** Answers with the name of the thread that did the work. */
		@GetMapping("/handoff")
		String handoff(@RequestParam long cpuMillis) {
			return this.asyncBurner.gamma(cpuMillis).join();
		}

	}

	@Service
	static class AsyncBurner {

		@Async
		public CompletableFuture<String> gamma(long cpuMillis) {
			long until = cpuNanos() + cpuMillis * 1_000_000;
			while (cpuNanos() < until) {
				sink += gammaHotMethod(100_000);
			}
			return CompletableFuture.completedFuture(Thread.currentThread().getName());
		}

		static long gammaHotMethod(int rounds) {
			long x = 13;
			for (int i = 0; i < rounds; i++) {
				x = x * 3202034522624059733L + 4354685564936845319L;
				x ^= (x >>> 27);
			}
			return x;
		}

		private static long cpuNanos() {
			return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
		}

	}

}
