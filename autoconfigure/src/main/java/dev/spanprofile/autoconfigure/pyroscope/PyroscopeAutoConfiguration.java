package dev.spanprofile.autoconfigure.pyroscope;

import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.pyroscope.PyroscopeEngine;
import dev.spanprofile.pyroscope.PyroscopeSettings;
import dev.spanprofile.pyroscope.PyroscopeSpanProcessor;
import dev.spanprofile.pyroscope.SpanLabels;
import dev.spanprofile.sampling.SamplingEngineFactory;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.pyroscope.javaagent.PyroscopeAgent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * {@code spanprofile.pyroscope.enabled=true}: the Pyroscope agent's profiler becomes the
 * engine, its profiles are uploaded with span labels and feed the local store too, and
 * sampled spans get {@code pyroscope.profile.id}.
 */
@AutoConfiguration(before = SpanProfileAutoConfiguration.class)
@ConditionalOnClass(SdkTracerProvider.class)
@ConditionalOnBooleanProperty(name = "spanprofile.enabled", matchIfMissing = true)
@EnableConfigurationProperties(PyroscopeProperties.class)
public final class PyroscopeAutoConfiguration {

	PyroscopeAutoConfiguration() {
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("spanprofile.pyroscope.enabled")
	@ConditionalOnClass(PyroscopeAgent.class)
	static class PyroscopeExportConfiguration {

		@Bean
		SpanLabels spanProfilePyroscopeLabels(PyroscopeProperties properties) {
			return new SpanLabels(properties.isRootSpanOnly(), properties.getMaxSpanNames());
		}

		@Bean
		PyroscopeExportStats spanProfilePyroscopeExportStats() {
			return new PyroscopeExportStats();
		}

		@Bean
		SamplingEngineFactory spanProfilePyroscopeEngine(PyroscopeProperties properties, SpanLabels labels,
				Environment environment, PyroscopeExportStats exportStats) {
			PyroscopeSettings settings = settings(properties, environment);
			return (sampler, frames) -> exportStats.created(new PyroscopeEngine(settings, labels, sampler, frames));
		}

		/**
		 * Right after spanprofile's own processor, before exporters: the attribute must
		 * be set at start.
		 */
		@Bean
		@Order(Ordered.HIGHEST_PRECEDENCE + 1)
		SpanProcessor spanProfilePyroscopeSpanProcessor(SpanLabels labels) {
			return new PyroscopeSpanProcessor(labels);
		}

		private static PyroscopeSettings settings(PyroscopeProperties properties, Environment environment) {
			String applicationName = (properties.getApplicationName() != null) ? properties.getApplicationName()
					: environment.getProperty("spring.application.name");
			return new PyroscopeSettings(properties.getServerAddress(), applicationName, properties.getTenantId(),
					properties.getUsername(), properties.getPassword(), properties.getBearerToken(),
					properties.getLabels(), properties.getUploadInterval(), properties.getCompressionLevel(),
					properties.getQueueCapacity(), properties.getMaxTries(), properties.getExportTimeout(),
					properties.isRootSpanOnly(), properties.isSpanName(), properties.getMaxSpanNames(),
					properties.isTraceId(), properties.getSampleRate());
		}

	}

	/**
	 * Enabled without the agent on the classpath: say so instead of silently exporting
	 * nothing.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("spanprofile.pyroscope.enabled")
	@ConditionalOnMissingClass("io.pyroscope.javaagent.PyroscopeAgent")
	static class MissingAgentConfiguration {

		private static final Log logger = LogFactory.getLog(PyroscopeAutoConfiguration.class);

		MissingAgentConfiguration() {
			logger.warn("spanprofile.pyroscope.enabled=true but io.pyroscope:agent is not on the classpath: nothing is "
					+ "exported to Pyroscope. Add the dependency io.pyroscope:agent.");
		}

	}

}
