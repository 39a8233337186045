package dev.spanprofile.autoconfigure;

import dev.spanprofile.actuate.PageHeadersFilter;
import dev.spanprofile.actuate.PageHeadersWebFilter;
import dev.spanprofile.actuate.SpanProfileEndpoint;
import jakarta.servlet.Filter;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.server.WebFilter;

/**
 * Security headers for the spanprofile pages, in whichever context serves the actuator
 * (the application's, or the child context of a separate management port), on a servlet
 * container or on WebFlux.
 */
@ManagementContextConfiguration(ManagementContextType.ANY)
@ConditionalOnAvailableEndpoint(SpanProfileEndpoint.class)
public class SpanProfileManagementContextConfiguration {

	/**
	 * The servlet filter is mapped to the endpoint's path only, so it is not part of the
	 * application's own requests (nor of their flame graphs).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(Filter.class)
	static class ServletPageHeadersConfiguration {

		@Bean
		FilterRegistrationBean<PageHeadersFilter> spanProfilePageHeadersFilter(
				ObjectProvider<PathMappedEndpoints> endpoints, Environment environment) {
			String path = endpointPath(endpoints);
			FilterRegistrationBean<PageHeadersFilter> registration = new FilterRegistrationBean<>(
					new PageHeadersFilter(() -> path));
			if (path == null) {
				registration.setEnabled(false);
				return registration;
			}
			registration.addUrlPatterns(path, path + "/*");
			// Under a spring.mvc.servlet.path the actuator's URLs start with it. In the
			// child context of a separate management port they do not; the extra pattern
			// then matches nothing.
			String servletPath = servletPathPrefix(environment.getProperty("spring.mvc.servlet.path", "/"));
			if (!servletPath.isEmpty()) {
				registration.addUrlPatterns(servletPath + path, servletPath + path + "/*");
			}
			return registration;
		}

		/** "/app" for "/app", "/app/" and "/app/*"; "" for the default "/". */
		static String servletPathPrefix(String servletPath) {
			String prefix = servletPath.trim();
			if (prefix.endsWith("/*")) {
				prefix = prefix.substring(0, prefix.length() - 2);
			}
			while (prefix.endsWith("/")) {
				prefix = prefix.substring(0, prefix.length() - 1);
			}
			return (prefix.isEmpty() || prefix.startsWith("/")) ? prefix : "/" + prefix;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass({ WebFilter.class, Mono.class })
	static class ReactivePageHeadersConfiguration {

		@Bean
		PageHeadersWebFilter spanProfilePageHeadersWebFilter(ObjectProvider<PathMappedEndpoints> endpoints) {
			// Looked up on first use, once the endpoints are mapped.
			return new PageHeadersWebFilter(SingletonSupplier.of(() -> endpointPath(endpoints)));
		}

	}

	private static String endpointPath(ObjectProvider<PathMappedEndpoints> endpoints) {
		PathMappedEndpoints mapped = endpoints.getIfAvailable();
		return (mapped != null) ? mapped.getPath(EndpointId.of("spanprofile")) : null;
	}

}
