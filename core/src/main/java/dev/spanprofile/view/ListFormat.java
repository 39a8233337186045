package dev.spanprofile.view;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The representations of the span list: JSON for programs, an HTML page for a browser.
 */
public enum ListFormat {

	/** Engine state and the spans, newest first. */
	JSON,

	/** A sortable, filterable page linking each span to its flame graph. */
	HTML;

	/**
	 * The format a {@code format} query parameter names, or {@code negotiated} when there
	 * is none.
	 * @param parameter the parameter, or {@code null}
	 * @throws ViewException for a name that is not a list format, saying which ones are
	 */
	public static ListFormat resolve(String parameter, ListFormat negotiated) {
		if (parameter == null || parameter.isBlank()) {
			return negotiated;
		}
		for (ListFormat format : values()) {
			if (format.name().equalsIgnoreCase(parameter.trim())) {
				return format;
			}
		}
		String valid = Arrays.stream(values())
			.map((format) -> format.name().toLowerCase(Locale.ROOT))
			.collect(Collectors.joining(", "));
		boolean profileFormat = Arrays.stream(ProfileFormat.values())
			.anyMatch((format) -> format.name().equalsIgnoreCase(parameter.trim()));
		throw ViewException.badRequest(profileFormat
				? "Format '" + parameter.trim().toLowerCase(Locale.ROOT) + "' is for one span's or trace's flame "
						+ "graph (/spanprofile/{id}); the span list is available as " + valid
				: "Unknown format '" + Echo.of(parameter) + "': valid formats for the span list are " + valid);
	}

}
