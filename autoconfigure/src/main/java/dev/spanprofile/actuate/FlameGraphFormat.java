package dev.spanprofile.actuate;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * The representations of a span's flame graph, chosen by the request's {@code Accept} header.
 */
public enum FlameGraphFormat implements Producible<FlameGraphFormat> {

	/** A {@code {name, value, self, kind, children}} tree plus the span's metadata. */
	JSON(MimeTypeUtils.APPLICATION_JSON),

	/** Collapsed stacks, one {@code frame;frame;frame count} line per distinct stack, as flamegraph.pl reads. */
	COLLAPSED(MimeTypeUtils.TEXT_PLAIN);

	private final MimeType mimeType;

	FlameGraphFormat(MimeType mimeType) {
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

}
