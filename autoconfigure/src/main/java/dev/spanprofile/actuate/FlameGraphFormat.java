package dev.spanprofile.actuate;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * The representations of a span's flame graph, chosen by the request's {@code Accept} header or, overriding it, a
 * {@code format} query parameter.
 * <p>
 * Order matters: when an {@code Accept} header lists several known types, the constant declared last wins
 * (qualities are not compared). HTML after JSON is what makes a browser's {@code text/html,...,*}{@code /*;q=0.8}
 * get the page while {@code *}{@code /*} alone (curl) gets JSON.
 */
public enum FlameGraphFormat implements Producible<FlameGraphFormat> {

	/** A {@code {name, value, self, kind, children}} tree plus the span's metadata. */
	JSON(MimeTypeUtils.APPLICATION_JSON),

	/** Collapsed stacks, one {@code frame;frame;frame count} line per distinct stack, as flamegraph.pl reads. */
	COLLAPSED(MimeTypeUtils.TEXT_PLAIN),

	/** An interactive, self-contained flame graph page. */
	HTML(new MimeType("text", "html", java.nio.charset.StandardCharsets.UTF_8)),

	/** A gzip'd pprof protobuf, for {@code go tool pprof}, Speedscope and Pyroscope. */
	PPROF(MimeTypeUtils.APPLICATION_OCTET_STREAM);

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

	/** The {@code format} query parameter's name for this format. */
	String parameterValue() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The format a {@code format} query parameter names, or {@code negotiated} when there is none.
	 * @throws IllegalArgumentException for an unknown name, saying which ones are valid
	 */
	static FlameGraphFormat resolve(@Nullable String parameter, FlameGraphFormat negotiated) {
		if (parameter == null || parameter.isBlank()) {
			return negotiated;
		}
		for (FlameGraphFormat format : values()) {
			if (format.parameterValue().equalsIgnoreCase(parameter.trim())) {
				return format;
			}
		}
		throw new IllegalArgumentException("Unknown format '" + SpanProfileEndpoint.echo(parameter)
				+ "': valid formats are " + Arrays.stream(values())
					.map(FlameGraphFormat::parameterValue)
					.collect(Collectors.joining(", ")));
	}

}
