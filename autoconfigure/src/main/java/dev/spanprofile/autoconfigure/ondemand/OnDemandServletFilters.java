package dev.spanprofile.autoconfigure.ondemand;

import java.io.IOException;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.web.filter.ServerHttpObservationFilter;

/**
 * The two servlet filters of a request that asks for its profile: {@link Before} runs
 * ahead of Spring's {@code ServerHttpObservationFilter} (which starts the request's span)
 * and arms the sampler; {@link After} runs right behind it, with the span current, and
 * sets the response's headers before the application writes a byte of its body.
 */
final class OnDemandServletFilters {

	/** The request attribute {@link Before} leaves for {@link After}. */
	static final String FORCED = OnDemandServletFilters.class.getName() + ".FORCED";

	private OnDemandServletFilters() {
	}

	static final class Before implements Filter {

		private final OnDemandRequests requests;

		Before(OnDemandRequests requests) {
			this.requests = requests;
		}

		@Override
		public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
				throws IOException, ServletException {
			if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse answer)) {
				chain.doFilter(request, response);
				return;
			}
			String value = http.getHeader(this.requests.header());
			if (value == null && !this.requests.capturing()) {
				chain.doFilter(request, response);
				return;
			}
			String path = http.getRequestURI().substring(http.getContextPath().length());
			OnDemandRequests.Forcing forcing = this.requests.beforeSpan(value, http.getRemoteAddr(), http.getMethod(),
					path);
			switch (forcing.decision()) {
				case FORCED -> http.setAttribute(FORCED, forcing);
				case RATE_LIMITED ->
					answer.addHeader("Server-Timing", OnDemandRequests.notProfiled("rate limit").serverTiming());
				case IGNORED -> {
				}
			}
			try {
				chain.doFilter(request, response);
			}
			finally {
				ForcedSampling.disarm();
				forcing.giveBack();
			}
		}

	}

	static final class After implements Filter {

		private final OnDemandRequests requests;

		After(OnDemandRequests requests) {
			this.requests = requests;
		}

		@Override
		public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
				throws IOException, ServletException {
			if (!(request.getAttribute(FORCED) instanceof OnDemandRequests.Forcing forcing)
					|| !(request instanceof HttpServletRequest http)
					|| !(response instanceof HttpServletResponse answer)) {
				chain.doFilter(request, response);
				return;
			}
			request.removeAttribute(FORCED);
			ServerRequestObservationContext observation = ServerHttpObservationFilter.findObservationContext(http)
				.orElse(null);
			OnDemandRequests.Answer headers = this.requests.afterSpanStarted(observation, forcing,
					http.getContextPath(), http.getServerName());
			// A request a capture took did not ask: its caller learns nothing of it.
			if (forcing.claim() == null) {
				answer.addHeader("Server-Timing", headers.serverTiming());
				if (headers.link() != null) {
					answer.addHeader("Link", headers.link());
				}
				chain.doFilter(request, response);
				return;
			}
			try {
				chain.doFilter(request, response);
			}
			finally {
				// The handler is chosen (on the first dispatch of an async request too).
				this.requests.requestHandled(observation, forcing,
						(observation != null) ? observation.getPathPattern() : null);
			}
		}

	}

}
