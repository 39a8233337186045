package dev.spanprofile.benchmarks.overhead;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One way of running the starter that the overhead benchmark compares with profiling off.
 *
 * @param label how the report names it
 * @param properties the {@code spanprofile.*} properties that differ from the defaults
 * @param judged whether the overhead goals apply to it (they are stated for the defaults)
 */
public record ProfilerSetting(String label, Map<String, String> properties, boolean judged) {

	/** The starter as it comes: {@code cpu} event, 10 ms interval. */
	public static ProfilerSetting defaults() {
		return new ProfilerSetting("defaults (cpu, 10 ms)", Map.of(), true);
	}

	public static ProfilerSetting of(String event, Duration interval) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("spanprofile.event", event);
		properties.put("spanprofile.interval", interval.toMillis() + "ms");
		return new ProfilerSetting(event + ", " + interval.toMillis() + " ms", properties, false);
	}

	/** The label of its windows, beside {@code off}. */
	String configuration() {
		return "on, " + this.label;
	}

}
