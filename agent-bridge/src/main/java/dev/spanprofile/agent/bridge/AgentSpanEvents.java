package dev.spanprofile.agent.bridge;

import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * What the OpenTelemetry Java agent's extension reports about the agent's spans,
 * implemented in the application. Plain values only (hex ids, names, JDK types): the
 * agent's OpenTelemetry classes are relocated copies that the application cannot see, and
 * the application's are invisible to the agent.
 * <p>
 * Called on the application's threads, inside the agent's instrumentation:
 * implementations never throw and never block.
 */
public interface AgentSpanEvents {

	/**
	 * The span active on the calling thread changed: {@code spanId} is the lowercase hex
	 * id of the span now active, the same String object for as long as that span stays
	 * active, or {@code null} when no sampled span is.
	 */
	void activated(String spanId);

	/**
	 * A sampled span started on the calling thread. {@code parentSpanId} is null for a
	 * trace root; {@code parentIsLocal} tells whether the parent runs in this process.
	 */
	void started(String traceId, String spanId, String parentSpanId, boolean parentIsLocal, String name, String kind);

	/**
	 * A sampled span ended, with its final name.
	 * @param localRoot whether the span has no parent in this process
	 * @param error whether its status is an error, valid during the call only: asked only
	 * of the spans the application keeps or counts, since answering copies the span's
	 * data
	 * @param stringAttributes looks up the span's string attributes by name (null when
	 * absent), valid during the call only
	 */
	void ended(String spanId, boolean localRoot, String name, BooleanSupplier error, long durationNanos,
			Function<String, String> stringAttributes);

}
