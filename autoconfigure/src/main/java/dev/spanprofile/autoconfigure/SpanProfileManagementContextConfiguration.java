package dev.spanprofile.autoconfigure;

import dev.spanprofile.actuate.PageHeadersFilter;
import dev.spanprofile.actuate.SpanProfileEndpoint;
import jakarta.servlet.Filter;

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

/**
 * Security headers for the spanprofile pages, in whichever context serves the actuator (the application's, or the
 * child context of a separate management port). The filter is mapped to the endpoint's path only, so it is not part
 * of the application's own requests (nor of their flame graphs).
 */
@ManagementContextConfiguration(ManagementContextType.ANY)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(Filter.class)
@ConditionalOnAvailableEndpoint(SpanProfileEndpoint.class)
public class SpanProfileManagementContextConfiguration {

	@Bean
	FilterRegistrationBean<PageHeadersFilter> spanProfilePageHeadersFilter(
			ObjectProvider<PathMappedEndpoints> endpoints) {
		PathMappedEndpoints mapped = endpoints.getIfAvailable();
		String path = (mapped != null) ? mapped.getPath(EndpointId.of("spanprofile")) : null;
		FilterRegistrationBean<PageHeadersFilter> registration = new FilterRegistrationBean<>(
				new PageHeadersFilter(() -> path));
		if (path != null) {
			// With a spring.mvc.servlet.path the pattern misses: the pages still carry the same policy in a <meta>.
			registration.addUrlPatterns(path, path + "/*");
		}
		else {
			registration.setEnabled(false);
		}
		return registration;
	}

}
