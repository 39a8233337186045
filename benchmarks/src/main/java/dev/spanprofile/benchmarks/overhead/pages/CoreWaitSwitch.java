package dev.spanprofile.benchmarks.overhead.pages;

import java.util.Map;

import dev.spanprofile.SpanProfiler;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Switches at run time whether the profiler reads how long a request's threads waited for
 * a core ({@link SpanProfiler#setCoreWait}), so that two copies of the page application
 * (or of {@code work}, which imports it) can be compared with the reads on and off in
 * opposite phase ({@code SwitchProbe --switch core-wait}) while profiling stays on in
 * both. Benchmark code only: the product switches it with {@code spanprofile.core-wait}.
 * The copies started with {@code spanprofile.enabled=false} have no profiler, hence the
 * provider.
 */
@RestController
public class CoreWaitSwitch {

	private final ObjectProvider<SpanProfiler> profiler;

	CoreWaitSwitch(ObjectProvider<SpanProfiler> profiler) {
		this.profiler = profiler;
	}

	/**
	 * {@code POST /core-wait?on=true|false}: answers the profiler's state after the
	 * switch, e.g. {@code {"on": false}}; 409 where spanprofile is not enabled.
	 */
	@PostMapping("/core-wait")
	Map<String, Object> set(@RequestParam boolean on) {
		SpanProfiler profiler = this.profiler.getIfAvailable();
		if (profiler == null) {
			throw new ResponseStatusException(HttpStatus.CONFLICT, "spanprofile is not enabled in this application");
		}
		profiler.setCoreWait(on);
		return Map.of("on", profiler.isCoreWait());
	}

}
