package dev.spanprofile.test.mvc;

import java.io.IOException;

import dev.spanprofile.test.work.RecognisableWork;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring MVC application whose requests burn CPU, allocate, or wait on a peer in
 * recognisable methods.
 */
@SpringBootApplication
public class WorkMvcApplication {

	@RestController
	static class WorkController {

		static volatile RecognisableWork.SlowPeer peer;

		@GetMapping("/burn")
		String burn(@RequestParam long cpuMillis) {
			return RecognisableWork.burn(cpuMillis);
		}

		@GetMapping("/allocate")
		String allocate(@RequestParam long kilobytes) {
			return RecognisableWork.allocate(kilobytes);
		}

		@GetMapping("/peer")
		String askPeer() throws IOException {
			return RecognisableWork.askSlowPeer(peer);
		}

	}

}
