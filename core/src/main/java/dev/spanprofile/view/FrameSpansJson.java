package dev.spanprofile.view;

import java.util.List;

/**
 * The JSON of the stored requests behind one frame of a span name's graph.
 *
 * @param name the span name
 * @param frame frame names from the outermost down to the frame
 * @param flameGraphEvent the kind of samples counted
 * @param spans the requests with the most samples in the frame, most first
 */
public record FrameSpansJson(String name, List<String> frame, String flameGraphEvent,
		List<Span> spans) implements TableBody {

	/**
	 * One request and its samples in the frame.
	 *
	 * @param spanId the request's span
	 * @param traceId its trace
	 * @param samples its samples (or weight) in the frame
	 * @param durationMillis how long it took
	 */
	public record Span(String spanId, String traceId, long samples, double durationMillis) {
	}

}
