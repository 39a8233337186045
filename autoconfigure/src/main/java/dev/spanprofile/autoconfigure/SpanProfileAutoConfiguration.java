package dev.spanprofile.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.SpanProfilerSettings;
import dev.spanprofile.aggregate.AggregateSettings;
import java.util.HashSet;

import dev.spanprofile.link.SpanLinkProcessor;
import dev.spanprofile.sampling.EngineChoice;
import dev.spanprofile.sampling.EngineWithWaits;
import dev.spanprofile.sampling.PeerNames;
import dev.spanprofile.sampling.SamplerSettings;
import dev.spanprofile.sampling.SamplingEngineFactory;
import dev.spanprofile.sampling.SocketWaits;
import dev.spanprofile.slowlog.SlowSpanLogSettings;
import dev.spanprofile.store.RetentionSettings;
import dev.spanprofile.store.StoreSettings;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * Profiles every sampled span: starts the sampling engine and reports span starts and
 * ends to it through a {@link SpanProcessor} that Spring Boot's OpenTelemetry
 * auto-configuration adds to the tracer provider.
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
			ObjectProvider<SamplingEngineFactory> engineFactory, PeerNames peerNames) {
		SamplerSettings sampler = new SamplerSettings(new HashSet<>(properties.getEvent()), properties.getInterval(),
				workDirectory(properties), properties.getNativeLibraryDirectory(), properties.getNativeLibraryPath(),
				properties.getAllocInterval().toBytes(), properties.getLockThreshold(),
				properties.getWaits().isEnabled() ? properties.getWaits().getThreshold() : null,
				new SocketWaits(properties.getWaits().getSocketThreshold(), peerNames));
		SpanProfileProperties.Retention retention = properties.getRetention();
		// One memory budget, halved between stored spans and span-name aggregates.
		long memory = properties.getMaxMemory().toBytes();
		StoreSettings store = new StoreSettings(properties.getMaxSpans(), memory - memory / 2,
				properties.isRootSpanOnly(), new RetentionSettings(retention.getSlowestPerName(), retention.getWindow(),
						retention.getMaxNames(), retention.getMaxErrorSpans()));
		SpanProfileProperties.SlowSpanLog slowLog = properties.getSlowSpanLog();
		SlowSpanLogSettings slowSpanLog = new SlowSpanLogSettings(slowLog.getThreshold(), slowLog.getMaxPerMinute(),
				environment.getProperty("management.endpoints.web.base-path", "/actuator") + "/spanprofile");
		SpanProfilerSettings settings = new SpanProfilerSettings(sampler, store, properties.getDumpInterval(),
				slowSpanLog, aggregateSettings(properties.getAggregate(), memory / 2));
		// An integration that owns the JVM's one profiler (the Pyroscope export) supplies
		// its engine.
		SamplingEngineFactory integration = engineFactory.getIfAvailable();
		SpanProfiler profiler;
		if (integration != null) {
			profiler = new SpanProfiler(settings,
					(chosen, frames) -> EngineWithWaits.around(integration.create(chosen, frames), chosen, frames));
		}
		else {
			EngineChoice engine = EngineSelection.choose(properties.getEngine(), environment);
			profiler = new SpanProfiler(settings, engine::create);
		}
		profiler.setExactCpuTime(properties.isExactCpuTime());
		profiler.setCoreWait(properties.isCoreWait());
		return profiler;
	}

	/**
	 * Names of the peers requests wait on, filled from the application's configuration
	 * (its data sources) as its beans are made.
	 */
	@Bean
	@ConditionalOnMissingBean
	PeerNames spanProfilePeerNames() {
		return new PeerNames();
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

	/**
	 * First, so that later processors (exporters) never delay the moment a span is known.
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	SpanProcessor spanProfileSpanProcessor(SpanProfiler spanProfiler, SpanProfileProperties properties,
			Environment environment) {
		ActuatorRequestFilter actuatorRequests = properties.isProfileActuatorRequests() ? null
				: new ActuatorRequestFilter(environment.getProperty("management.endpoints.web.base-path", "/actuator"));
		return spanProfiler.spanProcessor((span) -> actuatorRequests != null && actuatorRequests.test(span));
	}

	/**
	 * Local roots carry the address of their flame graph, for trace viewers to link to.
	 */
	@Bean
	@ConditionalOnProperty("spanprofile.link.base-url")
	SpanProcessor spanProfileLinkProcessor(SpanProfileProperties properties) {
		return new SpanLinkProcessor(properties.getLink().getBaseUrl());
	}

	private static AggregateSettings aggregateSettings(SpanProfileProperties.Aggregate aggregate, long maxBytes) {
		Duration window = aggregate.getWindow();
		Duration bucket = Duration.ofMinutes(1);
		if (window.compareTo(Duration.ofHours(1)) > 0) {
			bucket = window.dividedBy(60);
		}
		else if (window.compareTo(bucket) < 0) {
			bucket = window;
		}
		return new AggregateSettings(window, bucket, aggregate.getMaxNames(), aggregate.getMaxStacks(),
				Math.max(1, maxBytes));
	}

	private static Path workDirectory(SpanProfileProperties properties) {
		return (properties.getWorkDirectory() != null) ? properties.getWorkDirectory()
				: Path.of(System.getProperty("java.io.tmpdir"), "spanprofile");
	}

}
