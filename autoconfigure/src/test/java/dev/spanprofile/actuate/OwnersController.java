package dev.spanprofile.actuate;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * An endpoint with a known slow path, as a latency regression looks: most owners render
 * quickly; an owner whose id is a multiple of {@code slowEvery} also loads a long visit
 * history, which costs CPU and then waits.
 */
@RestController
class OwnersController {

	private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	static volatile long sink;

	@GetMapping("/owners/{ownerId}")
	String owner(@PathVariable long ownerId, @RequestParam(defaultValue = "10") long slowEvery,
			@RequestParam(defaultValue = "20") long renderMillis,
			@RequestParam(defaultValue = "300") long historyMillis,
			@RequestParam(defaultValue = "600") long waitMillis) {
		OwnerPage.renderOwnerPage(renderMillis);
		if (ownerId % slowEvery == 0) {
			VisitHistory.loadVisitHistorySlowly(historyMillis, waitMillis);
		}
		return "owner " + ownerId;
	}

	static void burn(long cpuMillis, int seed) {
		long until = threads.getCurrentThreadCpuTime() + cpuMillis * 1_000_000;
		while (threads.getCurrentThreadCpuTime() < until) {
			long x = seed;
			for (int i = 0; i < 200_000; i++) {
				x = x * 6364136223846793005L + 1442695040888963407L;
				x ^= (x >>> 29);
			}
			sink += x;
		}
	}

	static final class OwnerPage {

		static void renderOwnerPage(long cpuMillis) {
			burn(cpuMillis, 3);
		}

	}

	static final class VisitHistory {

		static void loadVisitHistorySlowly(long cpuMillis, long waitMillis) {
			burn(cpuMillis, 5);
			long until = System.nanoTime() + waitMillis * 1_000_000;
			while (System.nanoTime() < until) {
				LockSupport.parkNanos(until - System.nanoTime());
			}
		}

	}

}
