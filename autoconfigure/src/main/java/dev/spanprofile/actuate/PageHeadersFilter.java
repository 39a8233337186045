package dev.spanprofile.actuate;

import java.io.IOException;
import java.util.function.Supplier;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Adds the {@link PageHeaders} that an actuator operation cannot set, on a servlet
 * container. Applies to requests under the endpoint's path only.
 */
public final class PageHeadersFilter implements Filter {

	private final PageHeaders headers;

	/**
	 * @param endpointPath the endpoint's path below the context path, e.g.
	 * {@code /actuator/spanprofile}; looked up on first use, when the endpoints are
	 * mapped
	 */
	public PageHeadersFilter(Supplier<String> endpointPath) {
		this.headers = new PageHeaders(endpointPath);
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (request instanceof HttpServletRequest http && response instanceof HttpServletResponse httpResponse) {
			String path = http.getRequestURI().substring(http.getContextPath().length());
			this.headers.forRequest(path, http.getParameter("format")).forEach(httpResponse::setHeader);
		}
		chain.doFilter(request, response);
	}

}
