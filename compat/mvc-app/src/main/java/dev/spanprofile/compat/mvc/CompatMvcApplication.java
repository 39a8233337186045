package dev.spanprofile.compat.mvc;

import java.lang.management.ManagementFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A plain Spring MVC application, built unchanged against each supported Spring Boot line
 * (compat/boot35, compat/boot40, compat/boot41): its two endpoints burn CPU in two
 * methods with recognisable names.
 */
@SpringBootApplication
public class CompatMvcApplication {

	public static void main(String[] args) {
		SpringApplication.run(CompatMvcApplication.class, args);
	}

	@RestController
	static class BurnController {

		static volatile long sink;

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

		private static long cpuNanos() {
			return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
		}

	}

}
