package dev.spanprofile.actuate;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.lang.Nullable;

/**
 * The query parameters of a flame graph's address, as sent: each {@code null} when
 * absent, checked by the view layer so that bad input gets a message that says what is
 * wrong. Bound from the request by {@link ProfileParametersBinder}.
 *
 * @param format {@code json}, {@code collapsed}, {@code html} or {@code pprof},
 * overriding the {@code Accept} header ({@code json} or {@code html} with {@code frame})
 * @param event which flame graph when several kinds are sampled: {@code cpu},
 * {@code wall}, {@code alloc}, {@code lock} or {@code wait} (default: cpu when sampled,
 * or for a span that waited longer than it ran on a CPU, its waits)
 * @param name for {@code /names}: the exact span name, as {@code /names/{name}} takes it
 * in the path
 * @param window for a name and comparisons: how far back, e.g. {@code 15m} (default and
 * maximum: {@code spanprofile.aggregate.window})
 * @param minDurationMillis for a name: only requests at least this long (the slow side's
 * threshold when comparing; default the name's p90)
 * @param maxDurationMillis for a name: only requests at most this long
 * @param compare {@code typical}: a span, or a name's slow requests, against the name's
 * typical requests; {@code rest}: a name's selected requests against its others
 * @param frame for a name: frame names from the outermost down, joined by {@code ;}
 * @param from for a span: the graph of a stretch of its life only, from this many
 * milliseconds after its start (or from an ISO-8601 instant); for a name: only requests
 * that ended from this instant on
 * @param to for a span: the stretch's end, as {@code from}; for a name: only requests
 * that ended before this instant
 */
public record ProfileParameters(@Nullable String format, @Nullable String event, @Nullable String name,
		@Nullable String window, @Nullable String minDurationMillis, @Nullable String maxDurationMillis,
		@Nullable String compare, @Nullable String frame, @Nullable String from, @Nullable String to) {

	/**
	 * The parameters among an operation's arguments: query parameters by name, a repeated
	 * one as its values joined by commas (as Spring converts a list to a string).
	 */
	static ProfileParameters of(Map<String, Object> arguments) {
		return new ProfileParameters(text(arguments, "format"), text(arguments, "event"), text(arguments, "name"),
				text(arguments, "window"), text(arguments, "minDurationMillis"), text(arguments, "maxDurationMillis"),
				text(arguments, "compare"), text(arguments, "frame"), text(arguments, "from"), text(arguments, "to"));
	}

	private static String text(Map<String, Object> arguments, String key) {
		Object value = arguments.get(key);
		if (value instanceof List<?> values) {
			return values.stream().map(String::valueOf).collect(Collectors.joining(","));
		}
		return (value != null) ? value.toString() : null;
	}

}
