package dev.spanprofile.view;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

/**
 * How long a span name's requests waited and on what, as the name list carries it
 * ({@link NameWaits}). Times in milliseconds to the microsecond, shares in percent of the
 * requests' time to one decimal.
 *
 * @param millis waited in all over the window
 * @param millisPerRequest waited per request
 * @param percent of the requests' time
 * @param on per category of wait, longest first; empty when the requests never waited
 */
public record NameWaitsJson(double millis, double millisPerRequest, double percent, List<Category> on) {

	/**
	 * One category of waits.
	 *
	 * @param category e.g. {@code socket I/O}
	 * @param millis waited in it
	 * @param percent of the requests' time
	 * @param details what it was on (peers, monitors' classes, queues), longest first,
	 * when any is named; else left out
	 * @param otherDetails the rest of them added up, when there are more; else left out
	 */
	public record Category(String category, double millis, double percent,
			@JsonInclude(Include.NON_NULL) List<Detail> details, @JsonInclude(Include.NON_NULL) Detail otherDetails) {
	}

	/**
	 * What waits were on.
	 *
	 * @param detail a peer {@code host:port}, a monitor's class, a queue; for the others,
	 * how many
	 * @param millis waited on it
	 */
	public record Detail(String detail, double millis) {
	}

}
