package dev.spanprofile.actuate;

import java.time.Duration;
import java.util.Map;

import dev.spanprofile.view.ViewException;

/**
 * A span's flame graph's {@code await} query parameter (e.g. {@code ?await=5s}), bound by
 * {@link ProfileParametersBinder} beside {@link ProfileParameters}; checked when read, so
 * that a bad value is a 400 that says why.
 */
public final class AwaitParameter {

	private final Map<String, Object> arguments;

	AwaitParameter(Map<String, Object> arguments) {
		this.arguments = arguments;
	}

	/**
	 * How long to wait, {@code null} when not asked.
	 * @throws ViewException for a bad value or one above the cap
	 */
	Duration duration() {
		return ProfileAwait.parse(this.arguments);
	}

}
