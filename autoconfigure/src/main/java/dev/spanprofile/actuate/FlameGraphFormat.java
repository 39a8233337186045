package dev.spanprofile.actuate;

import dev.spanprofile.view.ProfileFormat;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * The media types of the {@link ProfileFormat flame graph formats}, for content
 * negotiation on the request's {@code Accept} header (a {@code format} query parameter
 * overrides it).
 * <p>
 * Order matters: when an {@code Accept} header lists several known types, the constant
 * declared last wins (qualities are not compared). HTML after JSON is what makes a
 * browser's {@code text/html,...,*}{@code /*;q=0.8} get the page while
 * {@code *}{@code /*} alone (curl) gets JSON.
 */
public enum FlameGraphFormat implements Producible<FlameGraphFormat> {

	/** A {@code {name, value, self, kind, children}} tree plus the span's metadata. */
	JSON(ProfileFormat.JSON, MimeTypeUtils.APPLICATION_JSON),

	/**
	 * Collapsed stacks, one {@code frame;frame;frame count} line per distinct stack, as
	 * flamegraph.pl reads.
	 */
	COLLAPSED(ProfileFormat.COLLAPSED, MimeTypeUtils.TEXT_PLAIN),

	/** An interactive, self-contained flame graph page. */
	HTML(ProfileFormat.HTML, new MimeType("text", "html", java.nio.charset.StandardCharsets.UTF_8)),

	/** A gzip'd pprof protobuf, for {@code go tool pprof}, Speedscope and Pyroscope. */
	PPROF(ProfileFormat.PPROF, MimeTypeUtils.APPLICATION_OCTET_STREAM);

	private final ProfileFormat format;

	private final MimeType mimeType;

	FlameGraphFormat(ProfileFormat format, MimeType mimeType) {
		this.format = format;
		this.mimeType = mimeType;
	}

	ProfileFormat format() {
		return this.format;
	}

	static FlameGraphFormat of(ProfileFormat format) {
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
