package dev.spanprofile.autoconfigure.ondemand;

import java.net.InetSocketAddress;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * A request that asks for its profile on WebFlux. Its span starts in the HTTP handler
 * itself, as the handler's answer is subscribed to, before any {@link WebFilter}: so the
 * {@link Handler} around it decides and arms the sampler for the time of that
 * subscription, on the thread that subscribes, and marks the response; the
 * {@link ResponseFilter}, first of the filters, has the span kept and sets the headers.
 */
final class OnDemandReactive {

	private OnDemandReactive() {
	}

	static final class Handler implements HttpHandler {

		private final HttpHandler delegate;

		private final OnDemandRequests requests;

		Handler(HttpHandler delegate, OnDemandRequests requests) {
			this.delegate = delegate;
			this.requests = requests;
		}

		@Override
		public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
			String value = request.getHeaders().getFirst(this.requests.header());
			if (value == null && !this.requests.capturing()) {
				return this.delegate.handle(request, response);
			}
			InetSocketAddress remote = request.getRemoteAddress();
			String address = (remote != null && remote.getAddress() != null) ? remote.getAddress().getHostAddress()
					: null;
			OnDemandRequests.Forcing forcing = this.requests.beforeSpan(value, address, request.getMethod().name(),
					request.getPath().pathWithinApplication().value());
			switch (forcing.decision()) {
				case FORCED -> {
					Mono<Void> handled;
					try {
						handled = this.delegate.handle(request, new ForcedResponse(response, forcing))
							// A captured request the filter never saw: its place back.
							.doFinally((signal) -> forcing.giveBack());
					}
					catch (RuntimeException ex) {
						// Thrown before an answer to subscribe to: nothing will give the
						// place back but this.
						forcing.giveBack();
						throw ex;
					}
					finally {
						// The sampler is armed while the answer is subscribed to: the
						// observation starts the span then, on this thread.
						ForcedSampling.disarm();
					}
					return Mono.fromDirect((subscriber) -> {
						ForcedSampling.arm();
						try {
							handled.subscribe(subscriber);
						}
						finally {
							ForcedSampling.disarm();
						}
					});
				}
				case RATE_LIMITED -> response.getHeaders()
					.add("Server-Timing", OnDemandRequests.notProfiled("rate limit").serverTiming());
				case IGNORED -> {
				}
			}
			return this.delegate.handle(request, response);
		}

	}

	/** The response of a forced request, as the filter finds it. */
	static final class ForcedResponse extends ServerHttpResponseDecorator {

		/** What was decided for the request. */
		final OnDemandRequests.Forcing forcing;

		ForcedResponse(ServerHttpResponse delegate, OnDemandRequests.Forcing forcing) {
			super(delegate);
			this.forcing = forcing;
		}

	}

	static final class ResponseFilter implements WebFilter, Ordered {

		private final OnDemandRequests requests;

		ResponseFilter(OnDemandRequests requests) {
			this.requests = requests;
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
			ForcedResponse forced = forcedResponse(exchange.getResponse());
			if (forced == null) {
				return chain.filter(exchange);
			}
			ServerRequestObservationContext observation = ServerRequestObservationContext
				.findCurrent(exchange.getAttributes())
				.orElse(null);
			OnDemandRequests.Answer answer = this.requests.afterSpanStarted(observation, forced.forcing,
					exchange.getRequest().getPath().contextPath().value(), host(exchange.getRequest()));
			// A request a capture took did not ask: its caller learns nothing of it.
			if (forced.forcing.claim() == null) {
				HttpHeaders headers = exchange.getResponse().getHeaders();
				headers.add("Server-Timing", answer.serverTiming());
				if (answer.link() != null) {
					headers.add("Link", answer.link());
				}
				return chain.filter(exchange);
			}
			// The handler is chosen, the observation not yet stopped.
			Runnable handled = () -> this.requests.requestHandled(observation, forced.forcing,
					(observation != null) ? observation.getPathPattern() : null);
			return chain.filter(exchange).doOnTerminate(handled).doOnCancel(handled);
		}

		private static String host(ServerHttpRequest request) {
			String host = request.getURI().getHost();
			return (host != null) ? host : "localhost";
		}

		private static ForcedResponse forcedResponse(ServerHttpResponse response) {
			ServerHttpResponse current = response;
			while (current instanceof ServerHttpResponseDecorator decorator) {
				if (current instanceof ForcedResponse forced) {
					return forced;
				}
				current = decorator.getDelegate();
			}
			return null;
		}

	}

}
