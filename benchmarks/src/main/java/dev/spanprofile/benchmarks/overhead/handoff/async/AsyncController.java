package dev.spanprofile.benchmarks.overhead.handoff.async;

import java.util.Map;

import dev.spanprofile.benchmarks.overhead.handoff.Rounds;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A request whose work runs in an {@code @Async} method while the request's thread waits
 * for it, as a controller calling an asynchronous service does. The work is not observed
 * itself: what differs between the copies compared is only whether the executor's threads
 * run it inside the request's context.
 */
@RestController
class AsyncController {

	private final AsyncWork work;

	AsyncController(AsyncWork work) {
		this.work = work;
	}

	@GetMapping("/async-work")
	Map<String, Object> work(@RequestParam(defaultValue = "100000") int rounds) {
		int bounded = Rounds.bounded(rounds);
		return Map.of("rounds", bounded, "result", this.work.compute(bounded).join());
	}

}
