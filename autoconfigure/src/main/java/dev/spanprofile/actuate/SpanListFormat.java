package dev.spanprofile.actuate;

import dev.spanprofile.view.ListFormat;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * The media types of the {@link ListFormat span list formats}: JSON for programs, an HTML
 * page for a browser (whose {@code Accept} header names {@code text/html} first). As with
 * {@link FlameGraphFormat}, the constant declared last wins when an {@code Accept} header
 * names several.
 */
public enum SpanListFormat implements Producible<SpanListFormat> {

	/** Engine state and the spans, newest first. */
	JSON(ListFormat.JSON, MimeTypeUtils.APPLICATION_JSON),

	/** A sortable, filterable page linking each span to its flame graph. */
	HTML(ListFormat.HTML, new MimeType("text", "html", java.nio.charset.StandardCharsets.UTF_8));

	private final ListFormat format;

	private final MimeType mimeType;

	SpanListFormat(ListFormat format, MimeType mimeType) {
		this.format = format;
		this.mimeType = mimeType;
	}

	ListFormat format() {
		return this.format;
	}

	static SpanListFormat of(ListFormat format) {
		return valueOf(format.name());
	}

	@Override
	public MimeType getProducedMimeType() {
		return this.mimeType;
	}

	@Override
	public boolean isDefault() {
		return this == JSON;
	}

}
