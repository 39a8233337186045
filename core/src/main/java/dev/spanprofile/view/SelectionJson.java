package dev.spanprofile.view;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;

import dev.spanprofile.aggregate.NameProfile;

/**
 * The requests of a span name a graph is limited to, as applied: the range asked for
 * widened to latency band edges, the instants to whole buckets. The same parameters as
 * the page's URL, so that a selection read from the JSON can be asked for again.
 *
 * @param from the earliest end time (ISO-8601)
 * @param to the latest end time (ISO-8601)
 * @param minDurationMillis the shortest duration
 * @param maxDurationMillis the longest, or {@code null} (left out) when the top band is
 * unbounded
 */
public record SelectionJson(String from, String to, double minDurationMillis,
		@JsonInclude(Include.NON_NULL) Double maxDurationMillis) {

	static SelectionJson of(NameProfile profile) {
		return new SelectionJson(Instant.ofEpochSecond(0, profile.fromEpochNanos()).toString(),
				Instant.ofEpochSecond(0, profile.toEpochNanos()).toString(), profile.minNanos() / 1e6,
				(profile.maxNanos() != Long.MAX_VALUE) ? profile.maxNanos() / 1e6 : null);
	}

}
