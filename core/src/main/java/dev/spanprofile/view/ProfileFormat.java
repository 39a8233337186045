package dev.spanprofile.view;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The representations of a flame graph (one span's, a trace's, and the views to come), by
 * the name a {@code format} query parameter gives them.
 */
public enum ProfileFormat {

	/** A {@code {name, value, self, kind, children}} tree plus the subject's metadata. */
	JSON,

	/**
	 * Collapsed stacks, one {@code frame;frame;frame count} line per distinct stack, as
	 * flamegraph.pl reads.
	 */
	COLLAPSED,

	/** An interactive, self-contained flame graph page. */
	HTML,

	/** A gzip'd pprof protobuf, for {@code go tool pprof}, Speedscope and Pyroscope. */
	PPROF;

	/** The {@code format} query parameter's name for this format. */
	public String parameterValue() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The format a {@code format} query parameter names, or {@code negotiated} (from the
	 * {@code Accept} header) when there is none.
	 * @param parameter the parameter, or {@code null}
	 * @throws ViewException for an unknown name, saying which ones are valid
	 */
	public static ProfileFormat resolve(String parameter, ProfileFormat negotiated) {
		if (parameter == null || parameter.isBlank()) {
			return negotiated;
		}
		for (ProfileFormat format : values()) {
			if (format.parameterValue().equalsIgnoreCase(parameter.trim())) {
				return format;
			}
		}
		throw ViewException.badRequest("Unknown format '" + Echo.of(parameter) + "': valid formats are "
				+ Arrays.stream(values()).map(ProfileFormat::parameterValue).collect(Collectors.joining(", ")));
	}

}
