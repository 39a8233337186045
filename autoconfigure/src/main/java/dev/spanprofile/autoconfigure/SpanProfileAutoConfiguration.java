package dev.spanprofile.autoconfigure;

import java.nio.file.Path;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import java.util.HashSet;

import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplingEngineFactory;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * Profiles every sampled span: starts the sampling engine and reports span starts and ends to it through a
 * {@link SpanProcessor} that Spring Boot's OpenTelemetry auto-configuration adds to the tracer provider.
 */
@AutoConfiguration(beforeName = {
		"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.tracing.OpenTelemetryTracingAutoConfiguration" })
@ConditionalOnClass({ SdkTracerProvider.class, SpanProfiler.class })
@ConditionalOnBooleanProperty(name = "spanprofile.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SpanProfileProperties.class)
public final class SpanProfileAutoConfiguration {

	SpanProfileAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	SpanProfiler spanProfiler(SpanProfileProperties properties, Environment environment,
			ObjectProvider<SamplingEngineFactory> engineFactory) {
		SamplerSettings sampler = new SamplerSettings(new HashSet<>(properties.getEvent()), properties.getInterval(),
				workDirectory(properties), properties.getNativeLibraryDirectory(), properties.getNativeLibraryPath());
		StoreSettings store = new StoreSettings(properties.getMaxSpans(), properties.getMaxMemory().toBytes(),
				properties.isRootSpanOnly());
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler, store, properties.getDumpInterval());
		// An integration that owns the JVM's one profiler (the Pyroscope export) supplies its engine.
		SamplingEngineFactory integration = engineFactory.getIfAvailable();
		if (integration != null) {
			return new SpanProfiler(settings, (frames) -> integration.create(sampler, frames));
		}
		EngineChoice engine = EngineSelection.choose(properties.getEngine(), environment);
		return new SpanProfiler(settings, (frames) -> engine.create(sampler, frames));
	}

	@Bean
	@ConditionalOnMissingBean
	SpanProfilerLifecycle spanProfilerLifecycle(SpanProfiler spanProfiler) {
		return new SpanProfilerLifecycle(spanProfiler);
	}

	@Bean
	MissingTracerWarning spanProfileMissingTracerWarning(ListableBeanFactory beanFactory) {
		return new MissingTracerWarning(beanFactory);
	}

	/** First, so that later processors (exporters) never delay the moment a span is known. */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	SpanProcessor spanProfileSpanProcessor(SpanProfiler spanProfiler, SpanProfileProperties properties,
			Environment environment) {
		ActuatorRequestFilter actuatorRequests = properties.isProfileActuatorRequests() ? null
				: new ActuatorRequestFilter(environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		return spanProfiler.spanProcessor((span) -> actuatorRequests != null && actuatorRequests.test(span));
	}

	private static Path workDirectory(SpanProfileProperties properties) {
		return (properties.getWorkDirectory() != null) ? properties.getWorkDirectory()
				: Path.of(System.getProperty("java.io.tmpdir"), "spanprofile");
	}

}
