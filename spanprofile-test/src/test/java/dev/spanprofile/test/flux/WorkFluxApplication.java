package dev.spanprofile.test.flux;

import dev.spanprofile.test.work.RecognisableWork;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A WebFlux application whose requests burn CPU or allocate on Reactor's bounded-elastic
 * workers, off the event loop (followed there by the request's span through Reactor's
 * context propagation).
 */
@SpringBootApplication
public class WorkFluxApplication {

	@RestController
	static class WorkController {

		@GetMapping("/burn")
		Mono<String> burn(@RequestParam long cpuMillis) {
			return Mono.fromCallable(() -> RecognisableWork.burn(cpuMillis)).subscribeOn(Schedulers.boundedElastic());
		}

		@GetMapping("/allocate")
		Mono<String> allocate(@RequestParam long kilobytes) {
			return Mono.fromCallable(() -> RecognisableWork.allocate(kilobytes))
				.subscribeOn(Schedulers.boundedElastic());
		}

	}

}
