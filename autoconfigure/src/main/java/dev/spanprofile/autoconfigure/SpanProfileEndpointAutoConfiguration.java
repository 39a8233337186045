package dev.spanprofile.autoconfigure;

import java.util.List;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.CaptureControl;
import dev.spanprofile.actuate.ProfileParametersBinder;
import dev.spanprofile.actuate.SpanProfileEndpoint;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code spanprofile} actuator endpoint. Like every endpoint it is only created when
 * exposed ({@code management.endpoints.web.exposure.include}) and its access follows
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
	SpanProfileEndpoint spanProfileEndpoint(SpanProfiler spanProfiler, BeanFactory beanFactory,
			ObjectProvider<CaptureControl> captures) {
		// The application's packages (those of its @SpringBootApplication class) mark
		// frames as application code.
		List<String> packages = AutoConfigurationPackages.has(beanFactory) ? AutoConfigurationPackages.get(beanFactory)
				: List.of();
		return new SpanProfileEndpoint(spanProfiler, packages, captures::getIfAvailable);
	}

	/**
	 * Binds the query parameters of the endpoint's flame graph operations, which take
	 * them as one record.
	 */
	@Bean
	@ConditionalOnAvailableEndpoint(endpoint = SpanProfileEndpoint.class)
	ProfileParametersBinder spanProfileParametersBinder() {
		return new ProfileParametersBinder();
	}

}
