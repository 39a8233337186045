package dev.spanprofile.autoconfigure.metrics;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.metrics.OtlpExportMetrics;
import dev.spanprofile.actuate.metrics.SpanProfileMetrics;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.autoconfigure.otlp.OtlpProfilesAutoConfiguration;
import dev.spanprofile.autoconfigure.pyroscope.PyroscopeAutoConfiguration;
import dev.spanprofile.autoconfigure.pyroscope.PyroscopeExportMetrics;
import dev.spanprofile.autoconfigure.pyroscope.PyroscopeExportStats;
import dev.spanprofile.otlp.OtlpProfilesExporter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The profiler's own metrics ({@code spanprofile.*}) in every meter registry of the
 * application, like any other {@code MeterBinder}. Boot 3 and Boot 4 keep their metrics
 * auto-configuration in different packages: both are named, whichever exists orders this
 * one.
 */
@AutoConfiguration(
		after = { SpanProfileAutoConfiguration.class, PyroscopeAutoConfiguration.class,
				OtlpProfilesAutoConfiguration.class },
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, SpanProfiler.class })
public final class SpanProfileMetricsAutoConfiguration {

	SpanProfileMetricsAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	SpanProfileMetrics spanProfileMetrics(SpanProfiler spanProfiler) {
		return new SpanProfileMetrics(spanProfiler);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "io.pyroscope.javaagent.PyroscopeAgent")
	@ConditionalOnBean(PyroscopeExportStats.class)
	static class PyroscopeExportMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		PyroscopeExportMetrics spanProfilePyroscopeExportMetrics(PyroscopeExportStats exportStats) {
			return new PyroscopeExportMetrics(exportStats);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(OtlpProfilesExporter.class)
	static class OtlpExportMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		OtlpExportMetrics spanProfileOtlpExportMetrics(OtlpProfilesExporter exporter) {
			return new OtlpExportMetrics(exporter);
		}

	}

}
