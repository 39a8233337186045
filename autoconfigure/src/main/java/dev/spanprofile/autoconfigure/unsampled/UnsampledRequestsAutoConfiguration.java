package dev.spanprofile.autoconfigure.unsampled;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.autoconfigure.ActuatorRequestFilter;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.autoconfigure.SpanProfileProperties;
import dev.spanprofile.lifecycle.UnsampledProfilingRate;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.tracing.handler.TracingObservationHandler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Counts and profiles the requests that tracing did not sample under the name their span
 * would have had: with Spring Boot's default sampling probability of 0.1, nine requests
 * in ten. All count in the latency statistics; so many a second are profiled
 * ({@code spanprofile.profiled-unsampled-requests-per-second}). An
 * {@link ObservationHandler} bean, which Spring Boot adds to the observation registry
 * after the tracing handlers.
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnClass({ ObservationHandler.class, TracingObservationHandler.class, SpanProfiler.class })
@ConditionalOnBooleanProperty(name = { "spanprofile.enabled", "spanprofile.profile-unsampled-requests" },
		matchIfMissing = true)
@ConditionalOnBean(SpanProfiler.class)
public final class UnsampledRequestsAutoConfiguration {

	UnsampledRequestsAutoConfiguration() {
	}

	@Bean
	ObservationHandler<?> spanProfileUnsampledRequestHandler(SpanProfiler spanProfiler,
			SpanProfileProperties properties, Environment environment) {
		ActuatorRequestFilter actuatorRequests = properties.isProfileActuatorRequests() ? null
				: new ActuatorRequestFilter(environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		return new UnsampledRequestObservationHandler(spanProfiler.unsampledRequests(),
				new UnsampledProfilingRate(properties.getProfiledUnsampledRequestsPerSecond()),
				(context) -> actuatorRequests != null && actuatorRequests
					.testAttributes((key) -> UnsampledRequestObservationHandler.tag(context, key)));
	}

}
