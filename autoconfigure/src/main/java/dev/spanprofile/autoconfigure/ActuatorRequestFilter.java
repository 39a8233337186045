package dev.spanprofile.autoconfigure;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.ReadableSpan;

/**
 * Recognises spans of HTTP requests to the actuator by their path attributes
 * (Micrometer's {@code uri} and {@code http.url}, OpenTelemetry's {@code url.path}),
 * which are final when the span ends: on OpenTelemetry's spans, or through
 * {@link #testAttributes} on another tracer's (Brave's tags).
 */
public final class ActuatorRequestFilter implements Predicate<ReadableSpan> {

	private static final List<String> PATH_ATTRIBUTE_NAMES = List.of("uri", "http.url", "url.path", "http.target");

	private static final List<AttributeKey<String>> PATH_ATTRIBUTES = List.of(AttributeKey.stringKey("uri"),
			AttributeKey.stringKey("http.url"), AttributeKey.stringKey("url.path"),
			AttributeKey.stringKey("http.target"));

	private final String basePath;

	private final String pathsBelow;

	private final String queries;

	public ActuatorRequestFilter(String basePath) {
		String trimmed = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
		this.basePath = trimmed.startsWith("/") ? trimmed : "/" + trimmed;
		this.pathsBelow = this.basePath + "/";
		this.queries = this.basePath + "?";
	}

	@Override
	public boolean test(ReadableSpan span) {
		for (AttributeKey<String> key : PATH_ATTRIBUTES) {
			String path = span.getAttribute(key);
			if (path != null && isActuatorPath(path)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a span whose string attributes {@code attribute} looks up is a request to
	 * the actuator.
	 */
	public boolean testAttributes(Function<String, String> attribute) {
		for (String name : PATH_ATTRIBUTE_NAMES) {
			String path = attribute.apply(name);
			if (path != null && isActuatorPath(path)) {
				return true;
			}
		}
		return false;
	}

	private boolean isActuatorPath(String path) {
		// http.url may be a full URL; what matters is the path part.
		int schemeEnd = path.indexOf("://");
		if (schemeEnd >= 0) {
			int pathStart = path.indexOf('/', schemeEnd + 3);
			path = (pathStart >= 0) ? path.substring(pathStart) : "/";
		}
		return path.startsWith(this.basePath) && (path.length() == this.basePath.length()
				|| path.startsWith(this.pathsBelow) || path.startsWith(this.queries));
	}

}
