package dev.spanprofile.tracking;

import io.opentelemetry.api.trace.SpanContext;

/**
 * Told, on the thread itself, every time the span active on a platform thread changes: on
 * every attach and on every scope close, with the span now active. Unlike
 * {@link SpanThreadListener} it also hears about changes between two spans (nesting,
 * hand-offs), so it can keep per-thread state that follows the activation timeline, such
 * as a native profiler's tracing context.
 * <p>
 * Runs on the application's hot path: implementations must be cheap and must not
 * allocate.
 */
@FunctionalInterface
public interface SpanActivationListener {

	/**
	 * @param span the span now active on the current thread, or {@code null} when none is
	 */
	void activated(SpanContext span);

}
