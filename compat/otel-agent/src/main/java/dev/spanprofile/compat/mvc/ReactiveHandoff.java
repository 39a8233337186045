package dev.spanprofile.compat.mvc;

import java.lang.management.ManagementFactory;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A request whose work runs on a Reactor scheduler: the handler returns a {@link Mono} that Spring MVC subscribes to,
 * the work runs on one of Reactor's {@code parallel-N} threads, and the response is written when it completes. The
 * OpenTelemetry Java agent carries the request's context through Reactor, and the work must still count as the
 * request's.
 */
@RestController
class ReactiveHandoff {

	static volatile long sink;

	/** Answers with the name of the thread that did the work. */
	@GetMapping("/reactive")
	Mono<String> reactive(@RequestParam long cpuMillis) {
		return Mono.fromCallable(() -> ReactiveBurner.delta(cpuMillis)).subscribeOn(Schedulers.parallel());
	}

	static final class ReactiveBurner {

		private ReactiveBurner() {
		}

		static String delta(long cpuMillis) {
			long until = cpuNanos() + cpuMillis * 1_000_000;
			while (cpuNanos() < until) {
				sink += deltaHotMethod(100_000);
			}
			return Thread.currentThread().getName();
		}

		static long deltaHotMethod(int rounds) {
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
