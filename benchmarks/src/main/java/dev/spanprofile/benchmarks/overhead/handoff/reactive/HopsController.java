package dev.spanprofile.benchmarks.overhead.handoff.reactive;

import java.time.Duration;
import java.util.Map;

import dev.spanprofile.benchmarks.overhead.handoff.Rounds;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A third of the request's work after each of the hops reactive code makes most often:
 * {@code subscribeOn} a bounded-elastic thread (a blocking call moved off the event
 * loop), {@code publishOn} the parallel scheduler, and a timer ({@code delayElement}, 1
 * ms). None of the three runs on the server's event-loop thread.
 */
@RestController
class HopsController {

	private static final Duration TIMER = Duration.ofMillis(1);

	@GetMapping("/hops")
	Mono<Map<String, Object>> hops(@RequestParam(defaultValue = "100000") int rounds) {
		int bounded = Rounds.bounded(rounds);
		int third = bounded / 3;
		return Mono.fromCallable(() -> Rounds.compute(third))
			.subscribeOn(Schedulers.boundedElastic())
			.publishOn(Schedulers.parallel())
			.map((x) -> x ^ Rounds.compute(third))
			.delayElement(TIMER)
			.map((x) -> x ^ Rounds.compute(bounded - 2 * third))
			.map((x) -> Map.of("rounds", bounded, "result", x));
	}

}
