package dev.spanprofile.actuate;

import java.util.function.Supplier;

import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Adds the {@link PageHeaders} that an actuator operation cannot set, in a reactive
 * (WebFlux) application.
 */
public final class PageHeadersWebFilter implements WebFilter {

	private final PageHeaders headers;

	/**
	 * @param endpointPath the endpoint's path below the context path, e.g.
	 * {@code /actuator/spanprofile}; looked up on first use, when the endpoints are
	 * mapped
	 */
	public PageHeadersWebFilter(Supplier<String> endpointPath) {
		this.headers = new PageHeaders(endpointPath);
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String path = exchange.getRequest().getPath().pathWithinApplication().value();
		String format = exchange.getRequest().getQueryParams().getFirst("format");
		// Set before the chain runs: the endpoint's response commits the headers as it
		// writes its body.
		this.headers.forRequest(path, format).forEach(exchange.getResponse().getHeaders()::set);
		return chain.filter(exchange);
	}

}
