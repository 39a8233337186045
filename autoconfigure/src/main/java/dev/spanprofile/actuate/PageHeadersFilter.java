package dev.spanprofile.actuate;

import java.io.IOException;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import dev.spanprofile.render.html.PageAssets;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Adds response headers that an actuator operation cannot set: the pages' Content-Security-Policy (their inline
 * script and style allowed by hash, nothing else), {@code nosniff}, no referrer, and a file name for pprof
 * downloads. Applies to requests under the endpoint's path only.
 */
public final class PageHeadersFilter implements Filter {

	private static final Pattern SAFE_ID = Pattern.compile("[0-9a-fA-F]{16,32}");

	private final Supplier<String> endpointPath;

	/**
	 * @param endpointPath the endpoint's path below the context path, e.g. {@code /actuator/spanprofile}; looked up
	 * on first use, when the endpoints are mapped
	 */
	public PageHeadersFilter(Supplier<String> endpointPath) {
		this.endpointPath = endpointPath;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (request instanceof HttpServletRequest http && response instanceof HttpServletResponse httpResponse) {
			String id = endpointRemainder(http);
			if (id != null) {
				httpResponse.setHeader("Content-Security-Policy", PageAssets.contentSecurityPolicy());
				httpResponse.setHeader("X-Content-Type-Options", "nosniff");
				httpResponse.setHeader("Referrer-Policy", "no-referrer");
				String format = http.getParameter("format");
				if (format != null && format.trim().equalsIgnoreCase("pprof") && SAFE_ID.matcher(id).matches()) {
					httpResponse.setHeader("Content-Disposition", "attachment; filename=\"spanprofile-" + id + ".pb.gz\"");
				}
			}
		}
		chain.doFilter(request, response);
	}

	/** The path after the endpoint's ("" for the list itself), or {@code null} for other requests. */
	private String endpointRemainder(HttpServletRequest request) {
		String path = this.endpointPath.get();
		if (path == null) {
			return null;
		}
		String uri = request.getRequestURI().substring(request.getContextPath().length());
		// Found anywhere, not only at the start: a servlet path (spring.mvc.servlet.path) may come first.
		int at = uri.indexOf(path);
		if (at < 0) {
			return null;
		}
		String rest = uri.substring(at + path.length());
		if (rest.isEmpty()) {
			return "";
		}
		return rest.startsWith("/") ? rest.substring(1) : null;
	}

}
