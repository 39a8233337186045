package dev.spanprofile.actuate;

import java.lang.management.ManagementFactory;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A real Spring MVC application whose one endpoint burns CPU in a method with a recognisable name. */
@SpringBootApplication
public class BurnApplication {

	@RestController
	static class BurnController {

		static volatile long sink;

		@GetMapping("/burn")
		String burn(@RequestParam(defaultValue = "300") long cpuMillis) {
			long until = cpuNanos() + cpuMillis * 1_000_000;
			while (cpuNanos() < until) {
				sink += recognisablyHotMethod(200_000);
			}
			return "burnt";
		}

		static long recognisablyHotMethod(int rounds) {
			long x = 7;
			for (int i = 0; i < rounds; i++) {
				x = x * 6364136223846793005L + 1442695040888963407L;
				x ^= (x >>> 31);
			}
			return x;
		}

		private static long cpuNanos() {
			return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
		}

	}

}
