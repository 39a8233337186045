package dev.spanprofile.autoconfigure.ondemand;

import java.util.Locale;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import io.micrometer.tracing.handler.TracingObservationHandler;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import reactor.core.publisher.Mono;

/**
 * Profile this request: a request carrying {@code spanprofile.on-demand.header} with the
 * right value is traced whatever the sampler says (the tracer's sampler is wrapped: the
 * OpenTelemetry SDK's or Brave's), kept as {@code forced} and answered with a
 * {@code Server-Timing} header naming its span and a {@code Link} to its flame graph. Off
 * unless {@code spanprofile.on-demand.enabled}; on, it needs a token or loopback callers,
 * else the application does not start.
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnClass({ SpanProfiler.class, TracingObservationHandler.class })
@ConditionalOnBooleanProperty("spanprofile.on-demand.enabled")
@ConditionalOnBean(SpanProfiler.class)
@EnableConfigurationProperties(OnDemandProperties.class)
public final class OnDemandAutoConfiguration {

	/**
	 * Spring's {@code ServerHttpObservationFilter} runs at this order and starts the
	 * request's span.
	 */
	private static final int OBSERVATION_FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 1;

	OnDemandAutoConfiguration() {
	}

	@Bean
	OnDemandGate spanProfileOnDemandGate(OnDemandProperties properties, Environment environment) {
		String token = properties.getToken();
		if ((token == null || token.isBlank()) && !properties.isAllowLoopback()) {
			throw new OnDemandTokenMissingException(properties.getHeader());
		}
		String forwarding = forwardedHeadersInEffect(environment);
		if (properties.isAllowLoopback() && forwarding != null) {
			throw new OnDemandLoopbackForwardedException(forwarding);
		}
		if (properties.getMaxPerMinute() < 0) {
			throw new IllegalStateException(
					"spanprofile.on-demand.max-per-minute must not be negative, was " + properties.getMaxPerMinute());
		}
		return new OnDemandGate(token, properties.isAllowLoopback(), properties.getMaxPerMinute(), System::nanoTime);
	}

	/**
	 * Why the server takes callers' addresses from forwarded headers, as Spring Boot
	 * decides it: {@code server.forward-headers-strategy}, else the cloud platform's
	 * default; {@code null} when it does not.
	 */
	static String forwardedHeadersInEffect(Environment environment) {
		String strategy = environment.getProperty("server.forward-headers-strategy");
		if (strategy != null && !strategy.isBlank()) {
			return strategy.trim().equalsIgnoreCase("none") ? null
					: "server.forward-headers-strategy=" + strategy.trim().toLowerCase(Locale.ROOT);
		}
		CloudPlatform platform = CloudPlatform.getActive(environment);
		return (platform != null && platform.isUsingForwardHeaders())
				? "the application runs on " + platform
						+ ", where Spring Boot uses forwarded headers unless server.forward-headers-strategy=none"
				: null;
	}

	/** Started by the endpoint: {@code POST /actuator/spanprofile {"capture": …}}. */
	@Bean
	RequestCaptures spanProfileRequestCaptures() {
		return new RequestCaptures(System::nanoTime, System::currentTimeMillis);
	}

	@Bean
	OnDemandRequests spanProfileOnDemandRequests(OnDemandGate gate, OnDemandProperties properties,
			SpanProfiler profiler, Environment environment, RequestCaptures captures) {
		return new OnDemandRequests(gate, properties.getHeader(), profiler, GraphLink.of(environment), captures);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.opentelemetry.sdk.trace.samplers.Sampler")
	static class OpenTelemetrySamplerConfiguration {

		/**
		 * The application's sampler, whichever it is, forced for the requests that ask.
		 */
		@Bean
		static BeanPostProcessor spanProfileForcingSampler() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
					if (bean instanceof io.opentelemetry.sdk.trace.samplers.Sampler sampler
							&& !(bean instanceof ForcingSampler)) {
						return new ForcingSampler(sampler);
					}
					return bean;
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "brave.sampler.Sampler")
	static class BraveSamplerConfiguration {

		/** Brave's sampler, whichever it is, forced for the requests that ask. */
		@Bean
		static BeanPostProcessor spanProfileForcingBraveSampler() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
					if (bean instanceof brave.sampler.Sampler sampler && !(bean instanceof ForcingBraveSampler)) {
						return new ForcingBraveSampler(sampler);
					}
					return bean;
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass({ HttpHandlerDecoratorFactory.class, Mono.class })
	static class ReactiveConfiguration {

		/**
		 * Around the HTTP handler, whose observation starts the request's span as it is
		 * subscribed to: arms the sampler for that moment.
		 */
		@Bean
		HttpHandlerDecoratorFactory spanProfileOnDemandHandlerDecorator(OnDemandRequests requests) {
			return (handler) -> new OnDemandReactive.Handler(handler, requests);
		}

		/** First of the filters: the span started, the response not committed. */
		@Bean
		OnDemandReactive.ResponseFilter spanProfileOnDemandWebFilter(OnDemandRequests requests) {
			return new OnDemandReactive.ResponseFilter(requests);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(Filter.class)
	static class ServletConfiguration {

		/** Ahead of the observation filter: arms the sampler before the span starts. */
		@Bean
		FilterRegistrationBean<OnDemandServletFilters.Before> spanProfileOnDemandFilter(OnDemandRequests requests) {
			FilterRegistrationBean<OnDemandServletFilters.Before> registration = new FilterRegistrationBean<>(
					new OnDemandServletFilters.Before(requests));
			registration.setOrder(OBSERVATION_FILTER_ORDER - 1);
			registration.setDispatcherTypes(DispatcherType.REQUEST);
			return registration;
		}

		/** Behind it: the span is current, the response not committed. */
		@Bean
		FilterRegistrationBean<OnDemandServletFilters.After> spanProfileOnDemandResponseFilter(
				OnDemandRequests requests) {
			FilterRegistrationBean<OnDemandServletFilters.After> registration = new FilterRegistrationBean<>(
					new OnDemandServletFilters.After(requests));
			registration.setOrder(OBSERVATION_FILTER_ORDER + 1);
			registration.setDispatcherTypes(DispatcherType.REQUEST);
			return registration;
		}

	}

}
