package dev.spanprofile.actuate;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * The representations of the span list: JSON for programs, an HTML page for a browser (whose {@code Accept} header
 * names {@code text/html} first). As with {@link FlameGraphFormat}, the constant declared last wins when an
 * {@code Accept} header names several.
 */
public enum SpanListFormat implements Producible<SpanListFormat> {

	/** Engine state and the spans, newest first. */
	JSON(MimeTypeUtils.APPLICATION_JSON),

	/** A sortable, filterable page linking each span to its flame graph. */
	HTML(new MimeType("text", "html", java.nio.charset.StandardCharsets.UTF_8));

	private final MimeType mimeType;

	SpanListFormat(MimeType mimeType) {
		this.mimeType = mimeType;
	}

	@Override
	public MimeType getProducedMimeType() {
		return this.mimeType;
	}

	@Override
	public boolean isDefault() {
		return this == JSON;
	}

	/**
	 * The format a {@code format} query parameter names, or {@code negotiated} when there is none.
	 * @throws IllegalArgumentException for a name that is not a list format, saying which ones are
	 */
	static SpanListFormat resolve(@Nullable String parameter, SpanListFormat negotiated) {
		if (parameter == null || parameter.isBlank()) {
			return negotiated;
		}
		for (SpanListFormat format : values()) {
			if (format.name().equalsIgnoreCase(parameter.trim())) {
				return format;
			}
		}
		String valid = Arrays.stream(values())
			.map((format) -> format.name().toLowerCase(Locale.ROOT))
			.collect(Collectors.joining(", "));
		boolean spanFormat = Arrays.stream(FlameGraphFormat.values())
			.anyMatch((format) -> format.name().equalsIgnoreCase(parameter.trim()));
		throw new IllegalArgumentException(spanFormat
				? "Format '" + parameter.trim().toLowerCase(Locale.ROOT) + "' is for one span's or trace's flame "
						+ "graph (/spanprofile/{id}); the span list is available as " + valid
				: "Unknown format '" + SpanProfileEndpoint.echo(parameter) + "': valid formats for the span list are "
						+ valid);
	}

}
