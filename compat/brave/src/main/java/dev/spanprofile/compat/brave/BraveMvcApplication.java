package dev.spanprofile.compat.brave;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring MVC application traced by Brave: two endpoints burn CPU in methods with
 * recognisable names on the request thread, a third hands its burning to an
 * {@code @Async} method on Spring's task executor and waits for it.
 */
@SpringBootApplication
@EnableAsync
public class BraveMvcApplication {

	static volatile long sink;

	public static void main(String[] args) {
		SpringApplication.run(BraveMvcApplication.class, args);
	}

	@RestController
	static class BurnController {

		private final AsyncBurner asyncBurner;

		BurnController(AsyncBurner asyncBurner) {
			this.asyncBurner = asyncBurner;
		}

		@GetMapping("/alpha")
		String alpha(@RequestParam long cpuMillis) {
			long until = cpuNanos() + cpuMillis * 1_000_000;
			while (cpuNanos() < until) {
				sink += alphaHotMethod(100_000);
			}
			return "alpha";
		}

		@GetMapping("/beta")
		String beta(@RequestParam long cpuMillis) {
			long until = cpuNanos() + cpuMillis * 1_000_000;
			while (cpuNanos() < until) {
				sink += betaHotMethod(100_000);
			}
			return "beta";
		}

		/** Answers with the name of the thread that did the work. */
		@GetMapping("/handoff")
		String handoff(@RequestParam long cpuMillis) {
			return this.asyncBurner.gamma(cpuMillis).join();
		}

		static long alphaHotMethod(int rounds) {
			long x = 7;
			for (int i = 0; i < rounds; i++) {
				x = x * 6364136223846793005L + 1442695040888963407L;
				x ^= (x >>> 31);
			}
			return x;
		}

		static long betaHotMethod(int rounds) {
			long x = 11;
			for (int i = 0; i < rounds; i++) {
				x = x * 2862933555777941757L + 3037000493L;
				x ^= (x >>> 29);
			}
			return x;
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

	}

	static long cpuNanos() {
		return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
	}

}
