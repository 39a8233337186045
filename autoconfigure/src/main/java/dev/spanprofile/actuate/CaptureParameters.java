package dev.spanprofile.actuate;

import java.util.Map;

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
 */
public record CaptureParameters(@Nullable String capture, @Nullable String count, @Nullable String within) {

	static CaptureParameters of(Map<String, Object> arguments) {
		return new CaptureParameters(text(arguments.get("capture")), text(arguments.get("count")),
				text(arguments.get("within")));
	}

	boolean isEmpty() {
		return this.capture == null && this.count == null && this.within == null;
	}

	private static String text(Object value) {
		return (value != null) ? value.toString() : null;
	}

}
