package dev.spanprofile.benchmarks.overhead;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One way of running the starter that the overhead benchmark compares with profiling off.
 *
 * @param label how the report names it
 * @param properties the {@code spanprofile.*} properties that differ from the defaults,
 * and {@code management.tracing.sampling.probability} where it is not 1.0
 * @param judged whether the goals of the separate runs apply to it (they are stated for
 * the defaults); the side-by-side goals apply to every setting
 */
public record ProfilerSetting(String label, Map<String, String> properties, boolean judged) {

	/**
	 * The starter as it comes: {@code ctimer} event, 20 ms interval, waits of 20 ms and
	 * longer.
	 */
	public static ProfilerSetting defaults() {
		return new ProfilerSetting("defaults (ctimer, 20 ms, waits)", Map.of(), true);
	}

	/**
	 * What docs/performance.md recommends for production: {@code ctimer}, 20 ms, and
	 * Spring Boot's default share of traced requests (10 %) instead of the benchmark
	 * applications' 100 %.
	 */
	public static ProfilerSetting production() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spanprofile.event", "ctimer");
		properties.put("spanprofile.interval", "20ms");
		properties.put("management.tracing.sampling.probability", "0.1");
		return new ProfilerSetting("recommended production setting (ctimer, 20 ms, 10 % traced)", properties, false);
	}

	public static ProfilerSetting of(String event, Duration interval) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spanprofile.event", event);
		properties.put("spanprofile.interval", interval.toMillis() + "ms");
		return new ProfilerSetting(event + ", " + interval.toMillis() + " ms", properties, false);
	}

	/**
	 * The most CPU per request, on / off side by side, that the setting may cost (issue
	 * 25): the defaults, waits included, 5 %; the recommended production setting 2 %, as
	 * any other setting measured.
	 */
	public double cpuLimit() {
		return equals(defaults()) ? 1.05 : 1.02;
	}

	/** The label of its windows, beside {@code off}. */
	String configuration() {
		return "on, " + this.label;
	}

}
