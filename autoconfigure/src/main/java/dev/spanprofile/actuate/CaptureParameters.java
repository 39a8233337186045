package dev.spanprofile.actuate;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.lang.Nullable;

/**
 * The keys of a {@code POST} that starts or cancels a capture, as sent: each {@code null}
 * when absent, checked by {@link CaptureRequest}. Bound from the body by
 * {@link ProfileParametersBinder}, so that the write operation keeps a handful of
 * parameters.
 *
 * @param capture the span name or URL path pattern
 * @param count how many requests; 0 cancels
 * @param within how long at most, e.g. {@code 10m}
 * @param unknownKeys the body's (and query's) keys that no write operation takes, in
 * their order: a capture with one is refused rather than started without it
 */
public record CaptureParameters(@Nullable String capture, @Nullable String count, @Nullable String within,
		List<String> unknownKeys) {

	/**
	 * Every key the write operation takes. The actuator binds a body as a map and passes
	 * each of its keys on as an argument, so the keys it would ignore are still there.
	 */
	private static final Set<String> KNOWN = Set.of("capture", "count", "within", "enabled", "event", "interval",
			"allocInterval", "lockThreshold");

	static CaptureParameters of(Map<String, Object> arguments) {
		List<String> unknown = arguments.keySet().stream().filter((key) -> !KNOWN.contains(key)).sorted().toList();
		return new CaptureParameters(text(arguments.get("capture")), text(arguments.get("count")),
				text(arguments.get("within")), unknown);
	}

	boolean isEmpty() {
		return this.capture == null && this.count == null && this.within == null;
	}

	private static String text(Object value) {
		return (value != null) ? value.toString() : null;
	}

}
