package dev.spanprofile.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The cold first requests: the first request of each name after the start, beside the
 * typical one of its name.
 *
 * @param requests the kept requests, in the order they completed
 */
public record FirstRequestsJson(@JsonUnwrapped EngineJson engine, List<Request> requests) {

	/**
	 * One first request.
	 *
	 * @param afterReadyMillis how long after the application was ready it began
	 * @param typicalMillis its name's median over the aggregate window (itself included);
	 * {@code null} when the name has expired
	 * @param requestsOfName requests of its name in that window
	 * @param graph its flame graph's address relative to the endpoint
	 */
	public record Request(String name, String spanId, String traceId, double durationMillis, double afterReadyMillis,
			Double typicalMillis, long requestsOfName, String graph) {
	}

}
