package dev.spanprofile.autoconfigure.brave;

import brave.Tracing;
import brave.handler.SpanHandler;
import brave.propagation.CurrentTraceContext;
import dev.spanprofile.SpanProfiler;
import dev.spanprofile.autoconfigure.ActuatorRequestFilter;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.autoconfigure.SpanProfileProperties;
import dev.spanprofile.tracking.ActivationRecorder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Profiles the spans of applications traced by Brave ({@code spring-boot-starter-zipkin},
 * or Micrometer's Brave bridge): Spring Boot's Brave auto-configuration adds every
 * {@link CurrentTraceContext.ScopeDecorator} bean to Brave's current trace context and
 * every {@link SpanHandler} bean to its tracer, so a decorator reports which span each
 * thread runs and a handler reports span starts and ends, as OpenTelemetry's context
 * storage hook and span processor do. An application's own current trace context gets the
 * decorator only if the application adds it: a WARN line says so at startup when it is
 * missing.
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class,
		beforeName = { "org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.tracing.BraveAutoConfiguration" })
@ConditionalOnClass({ Tracing.class, SpanProfiler.class })
@ConditionalOnBooleanProperty(name = "spanprofile.enabled", matchIfMissing = true)
@ConditionalOnBean(SpanProfiler.class)
public final class SpanProfileBraveAutoConfiguration {

	SpanProfileBraveAutoConfiguration() {
	}

	@Bean
	CurrentTraceContext.ScopeDecorator spanProfileScopeDecorator() {
		return new BraveActivationDecorator(ActivationRecorder.global());
	}

	@Bean
	ScopeDecoratorMissingWarning spanProfileScopeDecoratorMissingWarning(ObjectProvider<Tracing> tracing,
			ObjectProvider<CurrentTraceContext.ScopeDecorator> decorators) {
		return new ScopeDecoratorMissingWarning(tracing, decorators);
	}

	@Bean
	SpanHandler spanProfileSpanHandler(SpanProfiler spanProfiler, SpanProfileProperties properties,
			Environment environment) {
		ActuatorRequestFilter actuatorRequests = properties.isProfileActuatorRequests() ? null
				: new ActuatorRequestFilter(environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		return new BraveSpanHandler(spanProfiler.spanLifecycle(),
				(span) -> actuatorRequests != null && actuatorRequests.testAttributes(span::tag));
	}

}
