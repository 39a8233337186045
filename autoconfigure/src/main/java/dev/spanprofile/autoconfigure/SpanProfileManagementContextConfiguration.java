package dev.spanprofile.autoconfigure;

import dev.spanprofile.actuate.PageHeadersFilter;
import dev.spanprofile.actuate.SpanProfileEndpoint;
import jakarta.servlet.Filter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * Security headers for the spanprofile pages, in whichever context serves the actuator (the application's, or the
 * child context of a separate management port).
 */
@ManagementContextConfiguration(ManagementContextType.ANY)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(Filter.class)
@ConditionalOnAvailableEndpoint(SpanProfileEndpoint.class)
public class SpanProfileManagementContextConfiguration {

	@Bean
	PageHeadersFilter spanProfilePageHeadersFilter(ObjectProvider<PathMappedEndpoints> endpoints) {
		return new PageHeadersFilter(() -> {
			PathMappedEndpoints mapped = endpoints.getIfAvailable();
			return (mapped != null) ? mapped.getPath(EndpointId.of("spanprofile")) : null;
		});
	}

}
