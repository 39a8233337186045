package dev.spanprofile.benchmarks.overhead.app;

import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A request with a fixed amount of work in a traced child step, like a service call
 * inside a controller. The work is counted in loop rounds, not CPU time, so that anything
 * the profiler adds shows up as more CPU per request.
 */
@RestController
class WorkController {

	private final ObservationRegistry observations;

	WorkController(ObservationRegistry observations) {
		this.observations = observations;
	}

	@GetMapping("/work")
	Map<String, Object> work(@RequestParam(defaultValue = "100000") int rounds) {
		int bounded = Math.min(Math.max(rounds, 0), 10_000_000);
		long result = Observation.createNotStarted("work.compute", this.observations).observe(() -> compute(bounded));
		return Map.of("rounds", bounded, "result", result);
	}

	static long compute(int rounds) {
		long x = 17;
		for (int i = 0; i < rounds; i++) {
			x = x * 6364136223846793005L + 1442695040888963407L;
			x ^= (x >>> 29);
		}
		return x;
	}

}
