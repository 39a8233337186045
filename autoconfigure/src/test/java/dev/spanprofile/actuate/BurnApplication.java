package dev.spanprofile.actuate;

import java.lang.management.ManagementFactory;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real Spring MVC application whose one endpoint burns CPU in a method with a
 * recognisable name.
 */
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

		@GetMapping("/wait")
		String waitAWhile(@RequestParam(defaultValue = "300") long millis) throws InterruptedException {
			recognisablySleepyMethod(millis);
			return "waited";
		}

		static volatile Object escape;

		/**
		 * Allocates {@code megabytes}; with {@code overMillis}, a megabyte at a time
		 * spread evenly over about that long, so a pause in the recording misses a share
		 * of the bytes no larger than its share of that time.
		 */
		@GetMapping("/allocate")
		String allocate(@RequestParam(defaultValue = "32") long megabytes,
				@RequestParam(defaultValue = "0") long overMillis) throws InterruptedException {
			if (overMillis <= 0) {
				recognisablyAllocatingMethod(megabytes * 1024 * 1024);
				return "allocated";
			}
			for (long i = 0; i < megabytes; i++) {
				recognisablyAllocatingMethod(1024 * 1024);
				Thread.sleep(overMillis / megabytes);
			}
			return "allocated";
		}

		/** Allocates {@code bytes} in arrays of 1040 bytes each (header included). */
		static void recognisablyAllocatingMethod(long bytes) {
			for (long done = 0; done < bytes; done += 1040) {
				escape = new byte[1024];
			}
		}

		static void recognisablySleepyMethod(long millis) throws InterruptedException {
			Thread.sleep(millis);
		}

		static long recognisablyHotMethod(int rounds) {
			long x = 7;
			for (int i = 0; i < rounds; i++) {
				x = x * 6364136223846793005L + 1442695040888963407L;
				x ^= (x >>> 31);
			}
			return x;
		}

		/**
		 * CPU time of the current thread; elapsed time on virtual threads, which have no
		 * CPU clock of their own.
		 */
		private static long cpuNanos() {
			long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
			return (cpu >= 0) ? cpu : System.nanoTime();
		}

	}

}
