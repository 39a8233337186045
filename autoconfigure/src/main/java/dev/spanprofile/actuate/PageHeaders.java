package dev.spanprofile.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.spanprofile.render.html.PageAssets;

/**
 * Which response headers a request to the spanprofile endpoint gets, whatever the web
 * stack: the pages' Content-Security-Policy (their inline script and style allowed by
 * hash, nothing else), {@code nosniff}, no referrer, and a file name for pprof downloads.
 * Shared by the servlet {@link PageHeadersFilter} and the reactive
 * {@link PageHeadersWebFilter}.
 */
final class PageHeaders {

	private static final Pattern SAFE_ID = Pattern.compile("[0-9a-fA-F]{16,32}");

	private final Supplier<String> endpointPath;

	/**
	 * @param endpointPath the endpoint's path below the context path, e.g.
	 * {@code /actuator/spanprofile}; looked up on first use, when the endpoints are
	 * mapped
	 */
	PageHeaders(Supplier<String> endpointPath) {
		this.endpointPath = endpointPath;
	}

	/**
	 * The headers for a request, none for requests outside the endpoint.
	 * @param path the request's path below the context path
	 * @param format the {@code format} query parameter, or {@code null}
	 */
	Map<String, String> forRequest(String path, String format) {
		String id = endpointRemainder(path);
		if (id == null) {
			return Map.of();
		}
		Map<String, String> headers = new LinkedHashMap<>();
		// The list alone sends requests: its form starts and cancels captures.
		headers.put("Content-Security-Policy",
				id.isEmpty() ? PageAssets.indexContentSecurityPolicy() : PageAssets.contentSecurityPolicy());
		headers.put("X-Content-Type-Options", "nosniff");
		headers.put("Referrer-Policy", "no-referrer");
		if (format != null && format.trim().equalsIgnoreCase("pprof") && SAFE_ID.matcher(id).matches()) {
			headers.put("Content-Disposition", "attachment; filename=\"spanprofile-" + id + ".pb.gz\"");
		}
		return headers;
	}

	/**
	 * The path after the endpoint's ("" for the list itself), or {@code null} for other
	 * requests.
	 */
	private String endpointRemainder(String path) {
		String endpoint = this.endpointPath.get();
		if (endpoint == null) {
			return null;
		}
		// Found anywhere, not only at the start: a servlet path (spring.mvc.servlet.path)
		// may come first.
		int at = path.indexOf(endpoint);
		if (at < 0) {
			return null;
		}
		String rest = path.substring(at + endpoint.length());
		if (rest.isEmpty()) {
			return "";
		}
		return rest.startsWith("/") ? rest.substring(1) : null;
	}

}
