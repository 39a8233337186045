package dev.spanprofile.autoconfigure;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.SpanProfileEndpoint;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code spanprofile} actuator endpoint. Like every endpoint it is only created when exposed
 * ({@code management.endpoints.web.exposure.include}) and its access follows
 * {@code management.endpoint.spanprofile.access}.
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(SpanProfiler.class)
public final class SpanProfileEndpointAutoConfiguration {

	SpanProfileEndpointAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint
	SpanProfileEndpoint spanProfileEndpoint(SpanProfiler spanProfiler) {
		return new SpanProfileEndpoint(spanProfiler);
	}

}
