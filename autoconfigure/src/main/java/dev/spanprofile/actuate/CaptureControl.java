package dev.spanprofile.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Captures of a span name's next requests, as the endpoint starts, lists and cancels them
 * ({@code POST /actuator/spanprofile {"capture": …}}); the web layer's, when on-demand
 * profiling is on.
 */
public interface CaptureControl {

	/** Most requests one capture may ask for. */
	int MAX_COUNT = 1000;

	/** The longest a capture may run. */
	Duration MAX_WITHIN = Duration.ofHours(1);

	/**
	 * Force the next {@code count} requests matching {@code name} (a span name such as
	 * {@code http get /owners/{ownerId}}, or a URL path pattern such as
	 * {@code /owners/**}) for at most {@code within}; replaces a capture of the same
	 * name.
	 * @return the capture as listed
	 * @throws IllegalArgumentException when {@code name} is neither, with a message
	 * naming the field
	 */
	Map<String, Object> start(String name, int count, Duration within);

	/**
	 * Cancel the capture of {@code name}, or every capture when {@code null}.
	 * @return how many were cancelled
	 */
	int cancel(String name);

	/** The captures in progress, oldest first. */
	List<Map<String, Object>> active();

}
