package dev.spanprofile.actuate.reactive;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.IntToLongFunction;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real WebFlux application whose endpoints each hop threads in one of Reactor's ways
 * before burning CPU in a method with a recognisable name: the request's span must follow
 * the work to the thread that burns.
 */
@SpringBootApplication
public class HopsApplication {

	static volatile long sink;

	@RestController
	static class HopsController {

		@GetMapping("/subscribe-on")
		Mono<String> subscribeOn(@RequestParam long cpuMillis) {
			return Mono.fromCallable(() -> burn(cpuMillis, HopsController::subscribeOnHotMethod))
				.subscribeOn(Schedulers.boundedElastic());
		}

		@GetMapping("/publish-on")
		Mono<String> publishOn(@RequestParam long cpuMillis) {
			return Mono.just(cpuMillis)
				.publishOn(Schedulers.parallel())
				.map((millis) -> burn(millis, HopsController::publishOnHotMethod));
		}

		@GetMapping("/delay")
		Mono<String> delay(@RequestParam long cpuMillis) {
			// The timer fires on one of Reactor's parallel workers, and the rest of the
			// chain runs there.
			return Mono.just(cpuMillis)
				.delayElement(Duration.ofMillis(5))
				.map((millis) -> burn(millis, HopsController::delayHotMethod));
		}

		static long subscribeOnHotMethod(int rounds) {
			return mix(rounds, 3);
		}

		static long publishOnHotMethod(int rounds) {
			return mix(rounds, 5);
		}

		static long delayHotMethod(int rounds) {
			return mix(rounds, 7);
		}

	}

	/**
	 * Burns {@code cpuMillis} of this thread's CPU time in {@code hotMethod}; what the
	 * endpoint answers.
	 */
	public static String burn(long cpuMillis, IntToLongFunction hotMethod) {
		long until = cpuNanos() + cpuMillis * 1_000_000;
		while (cpuNanos() < until) {
			sink += hotMethod.applyAsLong(100_000);
		}
		return Thread.currentThread().getName();
	}

	/** Work for Netty's event loops outside any request. */
	public static long eventLoopHotMethod(int rounds) {
		return mix(rounds, 11);
	}

	private static long mix(int rounds, long seed) {
		long x = seed;
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
